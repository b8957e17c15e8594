"""The corpus read in: manifests and sources, the parsers that cut documents into clauses, spans, pages and glyphs."""
