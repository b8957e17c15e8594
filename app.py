"""The judgekb web app (Flask app factory).  Pages arrive with the web issue; for now it serves
the clause JSON that `judgekb show --json` prints, read-only."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, abort, jsonify


def create_app(db_path: Path | None = None, corpus: Path | None = None) -> Flask:
    from judgekb import store
    from judgekb.sources import default_corpus

    corpus = corpus or default_corpus()
    db_path = db_path or store.default_db()
    store.ensure(corpus, db_path)
    app = Flask(__name__)

    @app.get("/api/clause/<path:clause_id>")
    def clause(clause_id: str):
        row = store.clause(store.connect(db_path), clause_id)
        if row is None:
            abort(404, description=f"no clause '{clause_id}'")
        return jsonify(row)

    return app
