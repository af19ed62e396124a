"""The Flask application factory: the one place that wires the service together.

:func:`create_app` builds the use cases' dependencies once (the pool, the store, the
wake-ups, the game repository, the worker's caches), registers the routes, the rate limits
and the problem handlers, and starts this process's workers (webhook delivery, the deadline
sweeper, the e-mail and push senders); :func:`close_app` stops them.
"""
from __future__ import annotations

import time
from functools import partial
from typing import Any

from flask import Flask

from events import migrations, roles
from events.db import Database
from events.store import EventStore
from service.adapters.wakeups import Live
from service.adapters.webhooks.delivery import DeliveryWorker, Policy
from service.config import Config
from service.http import health, problems, rate_limits, requests, token_guard, web
from service.http.routes import (audit, chat, game_events, game_life, games, me, notifications, orders, ratings,
                                 reach, session, tournaments as tournament_routes, transparency,
                                 unsubscribe)
from service.model.game import Timeouts
from service.usecases.dependencies import Dependencies
from service.usecases.page_presence import Presence
from service.usecases.reach_workers import ReachWorkers
from service.usecases import tournaments
from service.usecases.sweep import Sweeper
from service.usecases.transparency import start as start_transparency

#: the blueprints, in the order they are registered
BLUEPRINTS = (health.bp, web.bp, audit.bp, problems.bp, games.bp, game_life.bp, me.bp, game_events.bp,
              notifications.bp, session.bp, orders.bp, reach.bp, unsubscribe.bp, chat.bp, ratings.bp,
              transparency.bp, tournament_routes.bp)


def dependencies(config: Config) -> Dependencies:
    """What the use cases are given, for one app: a pool as the service's own login (not a
    superuser; sql/008, unless the operator named one), its store and wake-ups."""
    service_url = config.app_database_url or roles.service_url(config.database_url)
    db = Database(service_url, max_size=config.pool_size, timeout=config.database_timeout_seconds)
    c = config
    deps = Dependencies(c, EventStore(db), db, Live(db.url),
                        timeouts=Timeouts(c.turn_timeout_seconds, c.final_window_timeout_seconds, c.turn_seconds_min,
                                          c.turn_seconds_max, c.vacation_days, c.timeouts_before_vote))
    clock = c.extra.get("clock")
    if clock is not None:
        deps.clock = clock
    # the append that ends a tournament's last table of a round forms the next round
    deps.games.on_table_over = partial(tournaments.table_over, deps)
    return deps


def create_app(config: Config | dict[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` may be a :class:`Config`, a dict of overrides, or None (environment)."""
    if config is None:
        config = Config.from_env()
    elif isinstance(config, dict):
        config = Config.from_env(**config)
    if not config.database_url:
        raise RuntimeError("no database URL: set DATABASE_URL or use `facedown serve`")
    if config.auto_migrate:
        migrations.upgrade(config.database_url)
    app = Flask("facedown")
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    deps = app.extensions["facedown"] = dependencies(config)
    try:
        start_transparency(deps)  # the log key, made at the first start and kept (docs/fairness.md)
    except ValueError:  # a mistyped setting: nothing left open behind the error
        deps.close()
        raise
    if config.rate_limit_per_second > 0:
        limiter = rate_limits.RateLimiter(config.rate_limit_per_second, max(1.0, config.rate_limit_burst),
                                          clock=config.extra.get("monotonic", time.monotonic))
        rate_limits.install(app, limiter, requests.claimed)
    app.before_request(requests.hide_unlisted_games)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    problems.install(app)
    token_guard.install(app)
    # the pages open in this process, for the e-mail sender in whichever process it runs
    workers: dict[str, Any] = {"presence": Presence(deps)}
    if config.webhook_worker:
        policy = config.extra.get("webhook_policy") or Policy.from_env(config.webhooks_allow_private)
        workers["webhooks"] = DeliveryWorker(deps, policy)
    if config.reach_worker:  # e-mail and pushes to players whose page is closed
        workers["reach"] = ReachWorkers(deps, config.extra.get("reach_policy"))
    if config.deadline_sweep_seconds > 0:
        workers["sweeper"] = Sweeper(deps, config.deadline_sweep_seconds)
    app.extensions["facedown_workers"] = workers
    return app


def close_app(app: Flask) -> None:
    """Stop what :func:`create_app` started in this process: the webhook and deadline workers,
    the LISTEN connections, and the pools. A served worker ends with its process instead; an
    app built for a while (a test, a benchmark's scratch games) is closed with this."""
    for worker in app.extensions.get("facedown_workers", {}).values():
        worker.close()
    app.extensions["facedown"].close()
