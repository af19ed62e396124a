"""``facedown serve``: the app under gunicorn, on the configured or embedded database.

The default worker is gunicorn's **gevent** worker: each connection is a greenlet, not a
thread, so a worker holds thousands of idle long-polls and event streams (a few KB each)
while commands and ``/healthz`` are answered at once. psycopg (3.1.14 and later) cooperates
with gevent by itself once the standard library is patched, which ``facedown serve`` does
before anything imports psycopg. ``--worker-class gthread`` keeps the thread-per-request
model (docs/performance.md compares both).

Slow or stalled clients cannot hold a worker: request headers must arrive within
``FACEDOWN_HEADER_TIMEOUT_SECONDS`` (gunicorn's keep-alive timeout, which the gevent worker
applies to every request's headers, the first included) and a body within
``FACEDOWN_BODY_TIMEOUT_SECONDS`` (:mod:`service.http.body_deadline`).
"""
from __future__ import annotations

import os
import resource
import signal
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from gunicorn.app.base import BaseApplication

WORKER_CLASSES = ("gevent", "gthread")


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    """gunicorn running facedown's app, or (``app_factory``) another WSGI app on the same database
    with the same settings: the benchmarks' stack floor (service/tools/bench/floor.py)."""

    def __init__(self, options: dict[str, Any], database_url: str,
                 app_factory: Callable[[str], Any] | None = None, app_database_url: str = "",
                 public_url: str = "") -> None:
        self.options = options
        self.public_url = public_url
        self.database_url = database_url
        self.app_database_url = app_database_url
        self.app_factory = app_factory
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings:  # older gunicorns lack some settings
                self.cfg.set(key, value)

    def load(self) -> Any:
        if self.app_factory is not None:
            return self.app_factory(self.database_url)
        from service.http.app import create_app
        from service.http.body_deadline import BodyDeadline

        # migrations ran once in the master; each worker builds its own pool after fork
        # each worker sweeps for passed deadlines (one at a time, by an advisory lock), may
        # deliver webhooks (one process at a time, by another) and limits each caller's
        # request rate: the defaults of a served API
        env = os.environ.get
        app = create_app({"database_url": self.database_url, "app_database_url": self.app_database_url,
                          "auto_migrate": False,
                          # a gevent worker serves many requests at once: a larger pool (each
                          # waiter holds a connection only for its short reads)
                          "pool_size": int(env("FACEDOWN_POOL_SIZE", "20")),
                          "deadline_sweep_seconds": float(env("FACEDOWN_DEADLINE_SWEEP_SECONDS", "30")),
                          "rate_limit_per_second": float(env("FACEDOWN_RATE_LIMIT_PER_SECOND", "50")),
                          "webhook_worker": env("FACEDOWN_WEBHOOK_WORKER", "1") != "0",
                          # e-mail and pushes to players whose page is closed (one process sends)
                          "reach_worker": env("FACEDOWN_REACH_WORKER", "1") != "0",
                          "public_url": env("FACEDOWN_PUBLIC_URL", "").strip().rstrip("/") or self.public_url})
        config = app.extensions["facedown"].config
        return BodyDeadline(app, config.body_timeout_seconds, config.max_body_bytes)


def gunicorn_options(host: str, port: int, workers: int, threads: int, worker_class: str = "gevent"
                     ) -> dict[str, Any]:
    env = os.environ.get
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": worker_class,
        "threads": threads,
        # the greenlets one gevent worker may hold (idle long-polls and streams included)
        "worker_connections": int(env("FACEDOWN_WORKER_CONNECTIONS", "12000")),
        "backlog": 4096,
        # the gevent worker reads every request's headers within this time (the first one
        # too); it is also how long an idle keep-alive connection stays open
        "keepalive": int(env("FACEDOWN_HEADER_TIMEOUT_SECONDS", "10")),
        "timeout": 60,  # a worker that stops answering the arbiter for this long is restarted
        "graceful_timeout": 5,  # waiters end at once on shutdown (service/adapters/wakeups.py); others get 5 s
        "accesslog": env("FACEDOWN_ACCESS_LOG", None),
        "errorlog": "-",
        "loglevel": env("FACEDOWN_LOG_LEVEL", "info"),
        "proc_name": "facedown",
        "control_socket_disable": True,  # no shared socket in $HOME: several servers may run
        "post_fork": _die_with_master,
        "post_worker_init": _end_waits_on_term,
    }
    return options


def _die_with_master(server: Any, worker: Any) -> None:
    """A worker dies the moment its master does (even by ``kill -9``): no orphan keeps the
    port or its clients' connections, so a restart binds at once and clients reconnect."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: gunicorn's own parent check remains
        pass


def _end_waits_on_term(worker: Any) -> None:
    """On shutdown (SIGTERM, SIGINT, SIGQUIT) long-polls and event streams end at once, so
    the worker stops within moments instead of waiting out its graceful timeout."""
    app = getattr(worker.wsgi, "app", worker.wsgi)
    deps = getattr(app, "extensions", {}).get("facedown")
    if deps is None:
        return
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        previous = signal.getsignal(sig)

        def handler(signum: int, frame: Any, previous: Any = previous) -> None:
            deps.live.stop_waiting()
            if callable(previous):
                previous(signum, frame)

        signal.signal(sig, handler)


def raise_open_files_limit() -> int:
    """Every idle client is a file descriptor: lift the soft limit to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft


def email_status(environ: Any) -> str:
    """What serve says once at start about e-mail (docs/reaching-players.md): off without
    FACEDOWN_SMTP_URL (players are told on their Account page too), else where it goes."""
    url = environ.get("FACEDOWN_SMTP_URL", "").strip()
    if not url:
        return ("facedown: e-mail is off (no FACEDOWN_SMTP_URL): nothing is e-mailed; "
                "Web Push and the page's own notifications still work")
    host = urlsplit(url).hostname or "?"
    return f"facedown: e-mail goes through {host} from {environ.get('FACEDOWN_MAIL_FROM', '').strip() or '(unset)'}"


def serve(host: str, port: int, workers: int, threads: int, worker_class: str = "gevent",
          echo: Any = print) -> None:
    """Resolve the database (embedded if needed), migrate, and run gunicorn until stopped."""
    from events import migrations, roles
    from events.embedded import database_url

    limit = raise_open_files_limit()
    url, embedded = database_url()
    try:
        if embedded is not None:
            echo(f"facedown: using the embedded PostgreSQL in {embedded.data_dir}")
        applied = migrations.upgrade(url)
        if applied:
            echo(f"facedown: applied migrations {', '.join(applied)}")
        app_url = os.environ.get("FACEDOWN_APP_DATABASE_URL", "") or roles.service_url(url)
        echo(f"facedown: serving on http://{host}:{port} ({workers} {worker_class} workers, "
             f"{limit} open files each)")
        echo(email_status(os.environ))
        # links in e-mails and pushes lead here unless FACEDOWN_PUBLIC_URL names the public address
        _Gunicorn(gunicorn_options(host, port, workers, threads, worker_class), url,
                  app_database_url=app_url, public_url=f"http://{host}:{port}").run()
    finally:
        if embedded is not None:
            embedded.stop(wait=15)  # the workers gunicorn just killed may take a moment to go
