"""What keeps one web request from costing the server too much.

* ``Memo``: finished results kept for reuse, bounded in bytes (least recently used out first);
* ``Slots``: at most a few scenario runs at once across all worker processes (``flock`` on slot
  files), so a burst of large scenarios is answered 429 instead of starving searches;
* ``read_body``: a request body read up to the cap whether it came with Content-Length or chunked.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import stat
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from werkzeug.exceptions import RequestEntityTooLarge


def deep_size(value: Any, limit: int = 1 << 24) -> int:
    """Approximate bytes held by a result (strings, numbers, lists, dicts); stops counting past ``limit``."""
    total, stack, seen = 0, [value], set()
    while stack and total <= limit:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return total


class Memo:
    """A thread-safe LRU memo bounded in bytes; an item larger than ``max_item`` is never kept."""

    def __init__(self, max_bytes: int = 32 << 20, max_item: int = 1 << 20) -> None:
        self.max_bytes = max_bytes
        self.max_item = max_item
        self.bytes = 0
        self.items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key][0]
        value = make()
        size = deep_size(key) + deep_size(value, self.max_item)
        if size > self.max_item:
            return value
        with self.lock:
            if key not in self.items:
                self.items[key] = (value, size)
                self.bytes += size
            while self.bytes > self.max_bytes and self.items:
                _, (_, dropped) = self.items.popitem(last=False)
                self.bytes -= dropped
        return value


class Slots:
    """A cross-process semaphore of ``count`` slots (lock files); ``take()`` yields False when all are busy."""

    def __init__(self, name: str, count: int, folder: Path | None = None) -> None:
        self.count = max(1, count)
        digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        self.folder = folder or Path(tempfile.gettempdir()) / f"judgekb-slots-{os.getuid()}-{digest}"
        self.local = threading.BoundedSemaphore(self.count)  # used when the folder cannot be made

    def _own_folder(self) -> bool:
        """The folder exists (made now if not), is a real folder and is this user's alone: one another user made
        first in the shared temp folder, or a symlink there, would hold every slot (a hostile-input review)."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(self.folder)
        return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077

    @contextlib.contextmanager
    def take(self) -> Iterator[bool]:
        try:
            usable = self._own_folder()
        except OSError:
            usable = False
        if not usable:  # this process's own slots, then
            got = self.local.acquire(blocking=False)
            try:
                yield got
            finally:
                if got:
                    self.local.release()
            return
        for number in range(self.count):
            try:
                fd = os.open(self.folder / f"slot-{number}", os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            try:
                yield True
            finally:
                os.close(fd)  # releases the slot
            return
        yield False


def read_body(stream: Any, cap: int) -> bytes:
    """At most ``cap`` bytes of a request body; RequestEntityTooLarge (413) if there is more, chunked or not."""
    parts, size = [], 0
    while size <= cap:
        part = stream.read(min(65536, cap + 1 - size))
        if not part:
            break
        parts.append(part)
        size += len(part)
    if size > cap:
        raise RequestEntityTooLarge()
    return b"".join(parts)
