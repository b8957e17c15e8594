"""Lookup by keyword: the search itself, the players' questions it matches against, and its evaluation set."""
