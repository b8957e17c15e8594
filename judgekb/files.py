"""Writing a text file the safe way: a temporary file beside it, then a rename; a file's stamp; and
reading a file a user names, bounded (``read_input``: a regular file only, within a size cap).

A reader never sees half a file, an error leaves the old one as it was (the temporary file is
removed), an unchanged file is not rewritten, and the file keeps its permissions (a new one gets
the usual ones, not the private 0600 of a temporary file: ``default_mode``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from judgekb.errors import DataError


def umask() -> int:
    """The process umask, read without changing it where the system says it (a change is not thread-safe)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def default_mode() -> int:
    """0o666 less the umask: what any other new file would get, so a service account can read it."""
    return 0o666 & ~umask()


def stamp_of(st: os.stat_result) -> str:
    """What changes whenever anything writes a file (its device, inode, size and times: a change time
    cannot be set back), for the stamps kept beside a database."""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def write_text_atomic(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically; False when the file already held exactly that text."""
    data = text.encode("utf-8")
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        mode = default_mode()
    import tempfile  # here, not at the top: a search never writes, and the module costs a cold start ~4 ms

    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def read_input(path: Path, cap: int | None) -> bytes:
    """The bytes of a file a user names: a regular file (a FIFO would block, a device never ends), at most ``cap`` bytes.

    Opened without blocking and checked on the open file, so nothing swapped in after a look can hang the read.
    Raises DataError naming the file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DataError(f"{path}: not a regular file (a FIFO, device or folder)")
        try:
            data = handle.read() if cap is None else handle.read(cap + 1)
        except OSError as exc:
            raise DataError(f"{path}: cannot read: {exc.strerror}") from None
    if cap is not None and len(data) > cap:
        raise TooLarge(f"{path}: larger than {_size(cap)}")
    return data


class TooLarge(DataError):
    """``read_input``'s file is over its cap (a caller may say how to lift it)."""


def _size(count: int) -> str:
    return f"{count >> 20} MB" if count >= 1 << 20 else f"{count >> 10} KB"


def refuse_special(path: Path) -> None:
    """Refuse to write over anything but a regular file (a FIFO would block, /dev/full never takes it).  Raises DataError."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"{path}: not a regular file (a FIFO, device or folder); not writing to it")
