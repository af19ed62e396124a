"""Liveness and readiness probes."""
from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from events import migrations
from events.errors import StoreError
from service.http.problems import unavailable
from service.http.requests import deps

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """The process is up."""
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz() -> ResponseReturnValue:
    """The database answers and every migration is applied."""
    d = deps()
    try:
        if not d.db.ping():
            return unavailable("the database does not answer")
        missing = migrations.pending(d.config.database_url)
    except StoreError as exc:
        return unavailable(f"the database is not ready: {exc}")
    if missing:
        return unavailable(f"migrations not applied: {', '.join(missing)}")
    return jsonify(status="ready")
