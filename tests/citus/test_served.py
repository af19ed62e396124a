"""`facedown serve` pointed at the coordinator: commands racing for one turn, a long-poll woken
by another seat's command (whose append ran on a worker), and the audit exported from the
cluster and verified offline."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import requests

from events.db import connect

from facedown_client import Client
from tests.e2e.test_bots_through_the_api import _seated
from tests.sdk.conftest import Served

CLI = [sys.executable, "-c", "from service.entrypoints.cli import main; main()"]


def _awaited(gid: str, clients: list[Client]) -> tuple[Client, dict[str, Any]]:
    for c in clients:
        view = c.request("GET", f"/v1/games/{gid}/view")
        if view["seat"] in view["awaiting"] and view["legal_actions"]:
            return c, view
    raise AssertionError("nobody may act")


def test_commands_racing_for_one_turn_are_serialised_by_the_games_row_lock_on_its_worker(
        served_cluster: Served, coordinator: str) -> None:
    gid, clients = _seated(served_cluster, "pedro", 3)
    me, view = _awaited(gid, clients)
    actions = (view["legal_actions"] * 8)[:8]  # eight requests at once, different keys
    barrier = threading.Barrier(len(actions))
    results: list[requests.Response] = []

    def send(i: int, action: dict[str, Any]) -> None:
        barrier.wait()
        results.append(requests.post(f"{served_cluster.url}/v1/games/{gid}/commands", json=action, timeout=60,
                                     headers={"Authorization": f"Bearer {me.token}", "Idempotency-Key": f"r{i}"}))

    threads = [threading.Thread(target=send, args=(i, a)) for i, a in enumerate(actions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = [r.status_code for r in results]
    assert codes.count(200) >= 1 and all(c in (200, 409, 422) for c in codes), codes
    versions = [r.json()["version"] for r in results if r.status_code == 200]
    assert len(set(versions)) == len(versions)  # never two commands decided on one version
    with connect(coordinator) as conn:
        stored = [r[0] for r in conn.execute("SELECT version FROM events WHERE stream_id = %s ORDER BY version",
                                             (gid,))]
        head = conn.execute("SELECT version FROM streams WHERE stream_id = %s", (gid,)).fetchone()[0]
    assert stored == list(range(1, head + 1)) and head == max(versions)


def test_a_long_poll_wakes_when_another_seat_commands(served_cluster: Served) -> None:
    gid, clients = _seated(served_cluster, "least-score", 2)
    me, view = _awaited(gid, clients)
    watcher = next(c for c in clients if c is not me)
    woke: list[float] = []
    pages: list[Any] = []

    def poll() -> None:
        pages.append(watcher.request("GET", f"/v1/games/{gid}/events", params={"after": view["version"], "wait": 20}))
        woke.append(time.perf_counter())

    t = threading.Thread(target=poll)
    t.start()
    time.sleep(0.5)  # the poll is waiting
    start = time.perf_counter()
    me.request("POST", f"/v1/games/{gid}/commands", view["legal_actions"][0])
    t.join(25)
    assert woke and pages[0]["events"], "the long-poll did not answer with the news"
    latency = woke[0] - start
    assert latency < 10  # far below the 20 s wait: woken by the hint, not by its end
    print(f"long-poll through facedown serve woken {latency * 1000:.0f} ms after the command was sent")


def test_the_audit_exported_from_the_cluster_verifies_offline(
        finished_game: str, coordinator: str, tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": coordinator}
    exported = subprocess.run([*CLI, "audit", "export", finished_game], env=env, capture_output=True, text=True,
                              timeout=120)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["events"]
    path = tmp_path / "game.json"
    path.write_text(exported.stdout)
    offline = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    verified = subprocess.run([*CLI, "audit", "verify", str(path)], env=offline, capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
