"""``facedown serve``: the app under gunicorn, on the configured or embedded database."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from gunicorn.app.base import BaseApplication

from events import migrations


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    """gunicorn running facedown's app, or (``app_factory``) another WSGI app on the same database
    with the same settings: the benchmarks' stack floor (service/bench_floor.py)."""

    def __init__(self, options: dict[str, Any], database_url: str,
                 app_factory: Callable[[str], Any] | None = None) -> None:
        self.options = options
        self.database_url = database_url
        self.app_factory = app_factory
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings:  # older gunicorns lack some settings
                self.cfg.set(key, value)

    def load(self) -> Any:
        if self.app_factory is not None:
            return self.app_factory(self.database_url)
        from service.app import create_app

        # migrations ran once in the master; each worker builds its own pool after fork
        # each worker sweeps for passed deadlines (one at a time, by an advisory lock) and
        # limits each caller's request rate: the defaults of a served API
        env = os.environ.get
        return create_app({"database_url": self.database_url, "auto_migrate": False,
                           "deadline_sweep_seconds": float(env("FACEDOWN_DEADLINE_SWEEP_SECONDS", "30")),
                           "rate_limit_per_second": float(env("FACEDOWN_RATE_LIMIT_PER_SECOND", "50"))})


def gunicorn_options(host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": 90,  # long-polls last up to 30 s
        "graceful_timeout": 10,
        "accesslog": os.environ.get("FACEDOWN_ACCESS_LOG", None),
        "errorlog": "-",
        "loglevel": os.environ.get("FACEDOWN_LOG_LEVEL", "info"),
        "proc_name": "facedown",
        "control_socket_disable": True,  # no shared socket in $HOME: several servers may run
    }


def serve(host: str, port: int, workers: int, threads: int, echo: Any = print) -> None:
    """Resolve the database (embedded if needed), migrate, and run gunicorn until stopped."""
    from events.embedded import database_url

    url, embedded = database_url()
    try:
        if embedded is not None:
            echo(f"facedown: using the embedded PostgreSQL in {embedded.data_dir}")
        applied = migrations.upgrade(url)
        if applied:
            echo(f"facedown: applied migrations {', '.join(applied)}")
        echo(f"facedown: serving on http://{host}:{port}")
        _Gunicorn(gunicorn_options(host, port, workers, threads), url).run()
    finally:
        if embedded is not None:
            embedded.stop()
