"""The error for bad input data, in a module of its own so that catching it costs no imports."""

from __future__ import annotations


class DataError(ValueError):
    """Bad input data: the message names the file, line and field."""
