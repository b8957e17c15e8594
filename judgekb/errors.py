"""The error for bad input data, in a module of its own so that catching it costs no imports; and how a
message quoting a user's input is made safe for a terminal."""

from __future__ import annotations

import re

# Control characters but the newline and the tab: a decklist line or lock id quoting "\x1b]0;…\x07" set the
# judge's terminal title and "\x1b[2J" cleared the screen
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """``text`` with its control characters written as escapes (``\\x1b``), as a terminal shows them harmlessly."""
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class DataError(ValueError):
    """Bad input data: the message names the file, line and field."""
