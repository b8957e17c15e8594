"""Writing a text file the safe way: a temporary file beside it, then a rename.

A reader never sees half a file, an error leaves the old one as it was (the temporary file is
removed), an unchanged file is not rewritten, and the file keeps its permissions (a new one gets
the usual ones, not the private 0600 of a temporary file).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_text_atomic(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically; False when the file already held exactly that text."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True
