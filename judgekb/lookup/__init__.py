"""Lookup by keyword: the index and its ranking (search), how text is read into words (words), what a
lookup says first (notices), the imported card titles a query spells out (titles), what the build persists
for it (tables), the players' questions it matches against (player_questions), and its evaluation sets
(evaluation)."""
