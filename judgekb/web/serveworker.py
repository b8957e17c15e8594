"""The worker `judgekb serve` runs: gunicorn's sync worker, answering an address too long with the site's own page,
and never held by a client that sends its request slowly.

gunicorn refuses a request line over ``limit_request_line`` before the app sees the request, with a bare
page reading "Request Line is too large": all a judge saw on reloading or sharing the address of a
search pasted whole.  The page shown instead is the app's error page (menu, message, a link to search).

A sync worker serves one connection at a time and gunicorn sets no read timeout of its own: five
connections that sent half their headers held every worker until the 30 s worker timeout killed them, and
nobody's search was answered meanwhile (a hostile-input review; one phone repeating it keeps the site down).
Reading a request now has its own deadline: the headers within ``HEADER_SECONDS``, a body within
``BODY_SECONDS``; a client that takes longer is dropped (one line in the log) and the worker goes on.
"""

from __future__ import annotations

import logging
from typing import Any

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.http.errors import LimitRequestLine  # type: ignore[import-untyped]
from gunicorn.workers.sync import SyncWorker  # type: ignore[import-untyped]

HEADER_SECONDS = 5.0  # a phone on venue Wi-Fi sends its request line and headers in well under a second
BODY_SECONDS = 15.0  # a posted decklist or scenario (at most 256 KB) and the short answer to it; below the 30 s worker timeout
SLOW = "judgekb: dropped a client that sent its request too slowly"


class _SlowClient(logging.Filter):
    """gunicorn logs a read that timed out as "Socket error processing request." with a traceback: one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], TimeoutError):
            record.msg, record.args, record.exc_info, record.exc_text = SLOW, (), None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class Worker(SyncWorker):  # type: ignore[misc]
    def init_process(self) -> None:
        self.log.error_log.addFilter(_SlowClient())
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        client.settimeout(HEADER_SECONDS)  # the request line and headers (gunicorn's parser reads them first)
        super().handle(listener, client, addr)

    def handle_request(self, listener: Any, req: Any, client: Any, addr: Any) -> Any:
        # headers read: a request with a body keeps a deadline for it (and its short answer); one without gets
        # none, so a large answer (the offline bundle) to a slow phone is bounded only by the worker timeout
        has_body = req.method in ("POST", "PUT", "PATCH") or any(k == "CONTENT-LENGTH" for k, _ in req.headers)
        client.settimeout(BODY_SECONDS if has_body else None)
        return super().handle_request(listener, req, client, addr)

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
