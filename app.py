"""The judgekb web app: ``create_app()`` is the Flask app factory.

Serve it with ``judgekb serve`` (gunicorn), or ``gunicorn 'app:create_app()'``.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from judgekb.web.app import create_app as _create_app


def create_app(db_path: str | Path | None = None, corpus: str | Path | None = None) -> Flask:
    return _create_app(Path(db_path) if db_path else None, Path(corpus) if corpus else None)
