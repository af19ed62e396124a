"""Liveness and readiness probes."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from events import migrations
from events.errors import StoreError
from service.model.problems import unavailable

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """The process is up."""
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz() -> ResponseReturnValue:
    """The database answers and every migration is applied."""
    ctx = current_app.extensions["facedown"]
    try:
        if not ctx.db.ping():
            return unavailable("the database does not answer")
        missing = migrations.pending(ctx.config.database_url)
    except StoreError as exc:
        return unavailable(f"the database is not ready: {exc}")
    if missing:
        return unavailable(f"migrations not applied: {', '.join(missing)}")
    return jsonify(status="ready")
