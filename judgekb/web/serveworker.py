"""The worker `judgekb serve` runs: gunicorn's sync worker, answering an address too long with the site's own page.

gunicorn refuses a request line over ``limit_request_line`` before the app sees the request, with a bare
page reading "Request Line is too large": all a judge saw on reloading or sharing the address of a
search pasted whole.  The page shown instead is the app's error page (menu, message, a link to search).
"""

from __future__ import annotations

from typing import Any

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.http.errors import LimitRequestLine  # type: ignore[import-untyped]
from gunicorn.workers.sync import SyncWorker  # type: ignore[import-untyped]


class Worker(SyncWorker):  # type: ignore[misc]
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
