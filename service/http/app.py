"""The Flask application factory."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from events import migrations, roles
from events.db import Database
from events.errors import StoreUnavailable
from events.store import EventStore
from service.config import Config
from service.model.game import UnreadableLog
from service.http import not_found
from service.model.problems import Problem, from_exception, problem_response, unavailable

_HTTP_SLUGS = {400: "bad-request", 401: "unauthorized", 403: "forbidden", 404: "not-found",
               405: "method-not-allowed", 406: "not-acceptable", 413: "payload-too-large",
               415: "unsupported-media-type", 429: "rate-limited"}


@dataclass
class AppContext:
    """What request handlers share: configuration, the pool and the store."""

    config: Config
    db: Database
    store: EventStore


def close_app(app: Flask) -> None:
    """Stop what :func:`create_app` started in this process: the webhook and deadline workers,
    the LISTEN connections, and the pools. A served worker ends with its process instead; an
    app built for a while (a test, a benchmark's scratch games) is closed with this."""
    for worker in ("facedown_webhooks", "facedown_sweeper"):
        if worker in app.extensions:
            app.extensions[worker].close()
    api = app.extensions.get("facedown_api")
    if api is not None:
        api.live.close()
        api.close()
    app.extensions["facedown"].db.close()


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
    # the service's own login (not a superuser; sql/008), unless the operator named one
    service_url = config.app_database_url or roles.service_url(config.database_url)
    db = Database(service_url, max_size=config.pool_size, timeout=config.database_timeout_seconds)
    app.extensions["facedown"] = AppContext(config, db, EventStore(db))
    if config.rate_limit_per_second > 0:
        from service.http.rate_limits import RateLimiter, install

        limiter = RateLimiter(config.rate_limit_per_second, max(1.0, config.rate_limit_burst),
                              clock=config.extra.get("monotonic", time.monotonic))
        install(app, limiter)

    from service import audit
    from service.http import health, web

    app.register_blueprint(health.bp)
    web.register(app)
    audit.register(app)
    try:
        from service.http.routes import register  # the game API (its own module)
    except ImportError as exc:
        if exc.name != "service.http.routes":
            raise
    else:
        register(app)

    @app.errorhandler(Problem)
    def _problem(exc: Problem) -> Response:
        return from_exception(exc)

    @app.errorhandler(StoreUnavailable)
    def _unavailable(exc: StoreUnavailable) -> Response:
        # fail fast while the database is away: clients retry, waiters and streams resume
        app.logger.warning("database unavailable on %s %s: %s", request.method, request.path, exc)
        return unavailable("the database cannot be reached; try again shortly")

    @app.errorhandler(UnreadableLog)
    def _unreadable(exc: UnreadableLog) -> Response:
        # the version only: the reason may quote the stored data, which may hold cards
        app.logger.error("%s %s: %s", request.method, request.path, exc)
        return problem_response("log-unreadable", f"event {exc.version} of this game cannot be read; its audit "
                                "names the first event that fails its checks")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        slug = _HTTP_SLUGS.get(status, "bad-request" if status < 500 else "internal")
        headers = {}
        valid = getattr(exc, "valid_methods", None)
        if status == 405 and valid:
            headers["Allow"] = ", ".join(valid)
        return problem_response(slug, _our_words(app, exc), status, headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response("internal", "an internal error occurred; it has been logged")

    return app


PROBLEM_DEFAULT = "the request could not be served"


def _our_words(app: Flask, exc: HTTPException) -> str:
    """The detail of an HTTP error: the words a handler gave it, else ours for what the
    framework raised itself (its own text is generic: "The requested URL was not found...")."""
    own = exc.description and exc.description != type(exc).description
    if own:
        return str(exc.description)
    if exc.code == 404:
        return not_found.detail(app.url_map, request.path) if request.url_rule is None else not_found.NO_FILE
    if exc.code == 405:
        allowed = ", ".join(sorted(getattr(exc, "valid_methods", None) or ()))
        return f"{request.method} is not allowed at this path; it takes {allowed}"
    return _FRAMEWORK.get(exc.code or 500, PROBLEM_DEFAULT)


#: What the framework's own errors mean here (handlers give their own words).
_FRAMEWORK = {400: "the request is malformed", 406: "the Accept header excludes every type this path answers with",
              413: "the request body is too large", 415: "the body must be application/json"}
