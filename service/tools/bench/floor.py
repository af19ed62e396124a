"""The HTTP stack's own floor, measured beside ``facedown bench api`` in the same run.

What limits ``bench api`` on one machine is the cost of the stack itself (gunicorn, Flask,
psycopg, one PostgreSQL commit per command) plus the load generator sharing the CPU. This is
that stack with nothing of facedown in it: a Flask app under gunicorn with ``facedown
serve``'s settings (workers, threads, worker class), on the same database, where

* ``POST /floor/commands`` does one single-row INSERT in its own transaction (an append is
  one transaction) and answers with a JSON body of a command answer's size;
* ``GET /floor/view`` does one single-row SELECT by key (a view's load is one query) and
  answers with a JSON body of a view's size.

No validation, no authentication lookup, no game logic, no event encoding: the commands per
second the same load generator reaches on it, with ``bench api``'s mix of views per command,
bound what any application on this stack reaches on this machine.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass

import orjson
from flask import Flask, Response, request

from service.tools.bench.http import ClientResult, Server, server_log, start_together, wait_ready
from service.tools.bench.wire import Conn

COMMAND = {"type": "Draw", "source": "stock"}


# one entry of the answers' padding: shaped like a legal action, so that the clients parse
# answers of the same size and about the same structure as facedown's
_ENTRY = {"type": "SnapOwn", "window_id": 17, "slot": "A", "penalty_to": "new"}


def _padded(size: int) -> bytes:
    """A JSON object of about ``size`` bytes: a version and a list of small objects."""
    entries = max(0, (size - 30) // (len(orjson.dumps(_ENTRY)) + 1))
    return orjson.dumps({"version": 1, "legal_actions": [_ENTRY] * entries})


def floor_app(database_url: str) -> Flask:
    """The minimal app (see the module docstring); sizes come from the environment."""
    from events.bench_sql import stack_floor_insert, stack_floor_select
    from events.db import Database

    db = Database(database_url, max_size=int(os.environ.get("FACEDOWN_POOL_SIZE", "32")))
    command_body = _padded(int(os.environ.get("FACEDOWN_FLOOR_COMMAND_BYTES", "7000")))
    view_body = _padded(int(os.environ.get("FACEDOWN_FLOOR_VIEW_BYTES", "6000")))
    app = Flask("facedown-floor")
    stream = uuid.uuid4()

    @app.get("/readyz")
    def ready() -> Response:
        return Response(b"{}", mimetype="application/json")

    @app.post("/floor/commands")
    def command() -> Response:
        row = stack_floor_insert(db, stream, orjson.loads(request.get_data()))
        return Response(command_body, mimetype="application/json", headers={"ETag": f'"{row}"'})

    @app.get("/floor/view")
    def view() -> Response:
        stack_floor_select(db, int(request.args.get("id", "1")))
        return Response(view_body, mimetype="application/json")

    return app


@dataclass
class FloorServer(Server):
    """gunicorn running :func:`floor_app`, with ``facedown serve``'s options."""

    command_bytes: int = 7000
    view_bytes: int = 6000

    def __enter__(self) -> FloorServer:
        from events.bench_sql import stack_floor_setup
        from events.db import Database

        db = Database(self.database_url, max_size=1, service_role=False)
        try:
            stack_floor_setup(db)
        finally:
            db.close()
        # as `facedown serve` does: under gevent the standard library is patched before psycopg loads
        patch = "from service.entrypoints.gevent_patch import patch_for_gevent\npatch_for_gevent()\n" \
            if self.worker_class == "gevent" else ""
        code = (patch + "import sys\n"
                "from service.entrypoints.serve import _Gunicorn, gunicorn_options\n"
                "from service.tools.bench.floor import floor_app\n"
                "o = gunicorn_options('127.0.0.1', int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[5])\n"
                "_Gunicorn(o, sys.argv[4], floor_app).run()\n")
        env = {**os.environ, "FACEDOWN_LOG_LEVEL": "warning", "FACEDOWN_FLOOR_COMMAND_BYTES": str(self.command_bytes),
               "FACEDOWN_FLOOR_VIEW_BYTES": str(self.view_bytes), "FACEDOWN_POOL_SIZE": str(self.threads)}
        cmd = [sys.executable, "-c", code, str(self.port), str(self.workers), str(self.threads), self.database_url,
               self.worker_class]
        self.log = server_log()
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        wait_ready(self.proc, self.url, self.log)
        return self


def floor_client(args: tuple[str, float, float, int]) -> ClientResult:
    """One client process: for ``seconds``, POST a command and GET ``views_per_command`` views
    per command (on average), one at a time on one keep-alive connection, parsing every answer."""
    base, seconds, views_per_command, seed = args
    conn = Conn(base)
    token = f"floor-{seed}-" + "t" * 32
    start_together()
    out = ClientResult(started=time.monotonic())
    cpu = time.process_time()
    due = random.Random(seed).random()  # clients do their views at different commands
    end = out.started + seconds
    try:
        while time.monotonic() < end:
            t0 = time.perf_counter()
            status, body, _ = conn.request("POST", "/floor/commands", COMMAND, token=token)
            out.command_ms.append((time.perf_counter() - t0) * 1000)
            out.command_at.append(time.monotonic())
            if status != 200 or body is None:
                out.errors.append(f"command: {status}")
                break
            out.commands += 1
            due += views_per_command
            while due >= 1:
                due -= 1
                t0 = time.perf_counter()
                # a row that exists: at least as many were inserted as this client has commands
                status, body, _ = conn.request("GET", f"/floor/view?id={out.commands}", token=token)
                out.view_ms.append((time.perf_counter() - t0) * 1000)
                if status != 200 or body is None:
                    out.errors.append(f"view: {status}")
                    break
    except (OSError, ValueError) as exc:
        out.errors.append(f"http: {type(exc).__name__}: {exc}")
    finally:
        conn.close()
    out.ended = time.monotonic()
    out.cpu_seconds = time.process_time() - cpu
    return out


__all__ = ["FloorServer", "floor_app", "floor_client"]
