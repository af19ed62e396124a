"""The game API (``/v1``) and its contract (``/openapi.yaml``)."""
from __future__ import annotations

from flask import Flask

from service.games import Api
from service.gamestate import Timeouts
from service.live import Live


def register(app: Flask) -> None:
    from service.api import routes

    ctx = app.extensions["facedown"]
    clock = ctx.config.extra.get("clock")
    api = Api(ctx.store, ctx.db, Live(ctx.config.database_url),
              timeouts=Timeouts(ctx.config.turn_timeout_seconds, ctx.config.final_window_timeout_seconds))
    if clock is not None:
        api.clock = clock
    app.extensions["facedown_api"] = api
    app.register_blueprint(routes.bp)
    if ctx.config.deadline_sweep_seconds > 0:
        from service.deadlines import Sweeper

        app.extensions["facedown_sweeper"] = Sweeper(api, ctx.config.deadline_sweep_seconds)
