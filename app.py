"""The judgekb web app: ``create_app()`` is the Flask app factory.

Serve it with ``judgekb serve``: that is the supported way at an event.  ``create_app`` is here for other WSGI
servers; ``gunicorn 'app:create_app()'`` is for development only, since it lacks what ``judgekb serve`` adds (the
site's own page for an address too long, read deadlines against slow clients, no control socket, warmed workers:
README, "The web app").
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from judgekb.web.app import create_app as _create_app


def create_app(db_path: str | Path | None = None, corpus: str | Path | None = None) -> Flask:
    return _create_app(Path(db_path) if db_path else None, Path(corpus) if corpus else None)
