"""The game API (``/v1``) and its contract (``/openapi.yaml``)."""
from __future__ import annotations

from flask import Flask

from service.usecases.dependencies import Api
from service.model.game import Timeouts
from service.adapters.wakeups import Live


def register(app: Flask) -> None:
    from service.http.routes import notifications as account, game_events, game_life as lifecycle, me, orders, games as routes, session

    ctx = app.extensions["facedown"]
    clock = ctx.config.extra.get("clock")
    c = ctx.config
    api = Api(ctx.store, ctx.db, Live(ctx.db.url), admin_url=c.database_url,
              deadline_soon_fraction=c.deadline_soon_fraction,
              timeouts=Timeouts(c.turn_timeout_seconds, c.final_window_timeout_seconds, c.turn_seconds_min,
                                c.turn_seconds_max, c.vacation_days, c.timeouts_before_vote))
    if clock is not None:
        api.clock = clock
    app.extensions["facedown_api"] = api
    app.register_blueprint(routes.bp)
    app.register_blueprint(lifecycle.bp)
    app.register_blueprint(me.bp)
    app.register_blueprint(game_events.bp)
    app.register_blueprint(account.bp)
    app.register_blueprint(session.bp)
    if ctx.config.webhook_worker:
        from service.adapters.webhooks.delivery import DeliveryWorker, Policy

        policy = ctx.config.extra.get("webhook_policy") or Policy.from_env(ctx.config.webhooks_allow_private)
        app.extensions["facedown_webhooks"] = DeliveryWorker(api, policy)
    app.register_blueprint(orders.bp)
    if ctx.config.deadline_sweep_seconds > 0:
        from service.usecases.sweep import Sweeper

        app.extensions["facedown_sweeper"] = Sweeper(api, ctx.config.deadline_sweep_seconds)
