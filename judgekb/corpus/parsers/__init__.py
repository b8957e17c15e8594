"""One parser per source format (spanmap, linemap, markdown2, paragraphs, html): each turns a source file into
clauses whose text is cut verbatim from the file."""
