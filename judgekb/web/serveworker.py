"""The worker `judgekb serve` runs: gunicorn's sync worker, answering an address too long with the site's own page,
and never held by a client that sends its request slowly.

gunicorn refuses a request line over ``limit_request_line`` before the app sees the request, with a bare
page reading "Request Line is too large": all a judge saw on reloading or sharing the address of a
search pasted whole.  The page shown instead is the app's error page (menu, message, a link to search).

A sync worker serves one connection at a time and gunicorn sets no read timeout of its own: five
connections that sent half their headers held every worker until the 30 s worker timeout killed them, and
nobody's search was answered meanwhile (a hostile-input review; one phone repeating it keeps the site down).
Reading a request now has its own deadline: the headers within ``HEADER_SECONDS`` of the connection, a body
within ``BODY_SECONDS`` of the headers; a client that takes longer is dropped (one line in the log) and the worker
goes on.  The deadlines bound reading only, never the answer, however long reading and computing took: writing
the answer to a request with a body may wait ``ANSWER_SECONDS`` at a time for the client to take some of it (a
slow phone that goes on reading gets all of it, within the worker timeout), and a client that takes nothing in
that time is dropped (one line in the log); the answer to a request without a body has no limit but the worker
timeout.  These are deadlines for the whole read, not timeouts for each
``recv``: a client that trickled one byte every 3 s (well inside a 5 s timeout per read) held its worker until
the worker timeout all the same (a hostile-input review, r53).  ``_Deadline`` wraps the client socket, and
each read waits only for what is left of the time.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.http.errors import LimitRequestLine  # type: ignore[import-untyped]
from gunicorn.workers.sync import SyncWorker  # type: ignore[import-untyped]

HEADER_SECONDS = 5.0  # a phone on venue Wi-Fi sends its request line and headers in well under a second
BODY_SECONDS = 15.0  # a posted decklist or scenario (at most 256 KB) and the short answer to it; below the 30 s worker timeout
ANSWER_SECONDS = 15.0  # the answer to a request with a body: a client that takes none of it this long is let go
SLOW = "judgekb: dropped a client that sent its request too slowly"
SLOW_READER = "judgekb: dropped a client that read its answer too slowly"


class _SlowClient(logging.Filter):
    """gunicorn logs a read past its deadline or a write past its timeout as "Socket error processing request." with a
    traceback; ``Worker.handle`` logs the one line ``SLOW`` or ``SLOW_READER`` instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], TimeoutError))


class _Deadline:
    """A client socket whose reads share one deadline: each ``recv`` waits only for the time left, and raises
    TimeoutError once it has run out (``late`` is then set).  Writes have no part in that deadline: each ``send``
    may wait ``send_seconds`` (None: as long as it takes) for the client to take some of the answer, and one that
    times out sets ``stalled``.  Everything else is the socket's own."""

    def __init__(self, sock: Any, seconds: float) -> None:
        self._sock = sock
        self.late = False
        self.stalled = False
        self.send_seconds: float | None = ANSWER_SECONDS  # (an error page to a request refused while it is read)
        self.limit(seconds)

    def limit(self, seconds: float | None) -> None:
        """From now on, reads end ``seconds`` from now; None: no deadline, as a plain blocking socket."""
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self._sock.settimeout(None)

    def _wait(self) -> None:
        if self.deadline is None:
            return
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.late = True
            raise TimeoutError(f"the client did not send its request within {self.seconds:g} s")
        self._sock.settimeout(left)

    def recv(self, size: int, *flags: int) -> bytes:
        if self.late:  # dropped: not even gunicorn's linger on closing reads from it (it would drip on for 2 s)
            raise TimeoutError("the client was dropped")
        self._wait()
        try:
            return bytes(self._sock.recv(size, *flags))
        except TimeoutError:
            self.late = self.late or self.deadline is not None  # (not gunicorn's own linger on closing)
            raise

    def sendall(self, data: Any, *flags: int) -> None:
        """The answer, a ``send`` at a time: a client that goes on reading gets all of it, however slowly."""
        view = memoryview(data).cast("B")
        while view:
            view = view[self.send(view, *flags) :]

    def send(self, data: Any, *flags: int) -> int:
        """One write of the answer, waiting ``send_seconds`` at most for the client to take some of it: the read deadline
        has no part in it (review r65 M2: a POST's answer had what was left of BODY_SECONDS, or a second, in all)."""
        prior = self._sock.gettimeout()
        self._sock.settimeout(self.send_seconds)
        try:
            return int(self._sock.send(data, *flags))
        except TimeoutError:
            self.stalled = self.send_seconds is not None
            raise
        finally:
            self._sock.settimeout(prior)  # (a read after it keeps its own terms: gunicorn's linger on closing)

    def settimeout(self, value: float | None) -> None:  # gunicorn's own (closing: a short linger, reading the rest)
        self.deadline = None
        self._sock.settimeout(value)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class Worker(SyncWorker):  # type: ignore[misc]
    def init_process(self) -> None:
        self.log.error_log.addFilter(_SlowClient())
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        sock = _Deadline(client, HEADER_SECONDS)  # the request line and headers (gunicorn's parser reads them first)
        try:
            super().handle(listener, sock, addr)
        finally:
            if sock.late:
                self.log.warning("%s (%s, within %g s)", SLOW, (addr or ("",))[0], sock.seconds or 0)
            elif sock.stalled:
                self.log.warning("%s (%s, nothing taken in %g s)", SLOW_READER, (addr or ("",))[0], sock.send_seconds or 0)

    def handle_request(self, listener: Any, req: Any, client: Any, addr: Any) -> Any:
        # headers read: a request with a body keeps a deadline for reading it, and each write of its answer may wait
        # ANSWER_SECONDS; one without gets neither, so a large answer (the offline bundle) to a slow phone is
        # bounded only by the worker timeout
        has_body = req.method in ("POST", "PUT", "PATCH") or any(k == "CONTENT-LENGTH" for k, _ in req.headers)
        if isinstance(client, _Deadline):
            client.limit(BODY_SECONDS if has_body else None)
            client.send_seconds = ANSWER_SECONDS if has_body else None
        try:
            return super().handle_request(listener, req, client, addr)
        finally:
            if isinstance(client, _Deadline) and not client.late:
                client.limit(None)  # answered: closing lingers on its own terms

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, LimitRequestLine):
            try:
                from judgekb.web.app import too_long_page

                response = too_long_page(self.wsgi, self.cfg.limit_request_line)
            except Exception:  # noqa: BLE001 - gunicorn's own answer is still an answer
                self.log.exception("judgekb: could not render the page for a request line too long")
            else:
                self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
                try:
                    util.write_nonblock(client, response)
                except Exception:  # noqa: BLE001 - the client went away, as gunicorn's handler allows
                    self.log.debug("Failed to send error message.")
                return
        super().handle_error(req, client, addr, exc)
