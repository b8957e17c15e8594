"""Writing a text file the safe way: a temporary file beside it, then a rename; a file's stamp; and
reading a file a user names, bounded (``read_input``: a regular file only, within a size cap), and
its JSON (``read_json``: only what JSON's standard allows and Unicode can hold).

A reader never sees half a file, an error leaves the old one as it was (the temporary file is
removed), an unchanged file is not rewritten, and the file keeps its permissions (a new one gets
the usual ones, not the private 0600 of a temporary file: ``default_mode``).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

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
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # before fdopen, which refuses a folder with IsADirectoryError
        os.close(fd)
        raise DataError(f"{path}: not a regular file (a FIFO, device or folder)")
    with os.fdopen(fd, "rb") as handle:
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


NESTED = "the JSON is nested too deeply"


class JSONError(DataError):
    """``read_json``'s refusal: ``problem`` (and the ``line``, when one is at fault) as well as the whole message,
    so that a caller can say what the file was not ("not a judgekb lock file (line 3: ...)") without parsing it."""

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        super().__init__(f"{source}:{line}: {problem}" if line else f"{source}: {problem}")
        self.problem, self.line = problem, line

    @property
    def reason(self) -> str:
        """The problem, after its line: the message without the source it begins with."""
        return f"line {self.line}: {self.problem}" if self.line else self.problem
LONG_NUMBER = re.compile(r"\d{4301}")  # Python refuses to read an integer of more digits (sys.int_info)
SURROGATE = re.compile("[\ud800-\udfff]")


def read_json(text: str, source: str) -> Any:
    """JSON a user gave (a card database, a decklist, a lock file), or a DataError naming ``source``
    and the line: never Python's own errors.  Python's reader takes what no JSON writer means (NaN and
    Infinity), stops at an integer of more than 4,300 digits with a ValueError, and turns an escaped
    lone surrogate ("\\ud800") into text nothing can print or store."""

    def refuse(constant: str) -> Any:
        raise JSONError(source, f"{constant} is not a JSON number")

    try:
        data = json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        raise JSONError(source, f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise JSONError(source, NESTED) from None
    except JSONError:  # (``refuse``'s)
        raise
    except ValueError:  # (the integer limit)
        long = LONG_NUMBER.search(text)
        line = text.count("\n", 0, long.start()) + 1 if long else 1
        raise JSONError(source, "a number with more than 4,300 digits is too long", line) from None
    if "\\u" in text and _has_surrogate(data):
        raise JSONError(source, "text holds an escaped lone surrogate (such as \\ud800), which is not a character")
    return data


def read_json_file(path: Path, cap: int | None = None) -> Any:
    """``read_json`` of a file a user names, read by ``read_input`` (a regular file, within ``cap`` bytes) as UTF-8."""
    raw = read_input(path, cap)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JSONError(str(path), f"not UTF-8 text (byte {exc.start})") from None
    return read_json(text, str(path))


def _has_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:  # (a loop, not recursion: the parser already allowed this depth)
        item = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return False
