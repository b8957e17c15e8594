"""Cards: those named in the corpus, imported card data, card pages, restricted lists, decklists and deck checks."""
