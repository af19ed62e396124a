"""The connection model of ``facedown serve`` (gevent workers), tried as clients do it: many
idle waiters, clients that walk away, clients that stall, and a database that goes away."""
from __future__ import annotations

import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.served import Served, get, raw, served
from tests.service.webhook_receiver import receiver

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(db_factory: object) -> Iterator[Served]:
    with served(db_factory.new(), FACEDOWN_HEADER_TIMEOUT_SECONDS="2",  # type: ignore[attr-defined]
                FACEDOWN_BODY_TIMEOUT_SECONDS="2", FACEDOWN_CLIENT_PROBE_SECONDS="0.5") as s:
        yield s


def _game(server: Served) -> tuple[str, list[dict[str, str]]]:
    players = [server.player(f"c{i}") for i in range(2)]
    auth = {"Authorization": f"Bearer {players[0]['token']}"}
    gid = requests.post(server.url + "/v1/games", json={"ruleset": "pedro", "seats": 2}, headers=auth,
                        timeout=10).json()["id"]
    requests.post(f"{server.url}/v1/games/{gid}/join", headers={"Authorization": f"Bearer {players[1]['token']}"},
                  timeout=10).raise_for_status()
    return gid, players


def _healthz_ms(server: Served, n: int = 20) -> list[float]:
    out = []
    with requests.Session() as s:
        for _ in range(n):
            t0 = time.perf_counter()
            assert s.get(server.url + "/healthz", timeout=5).status_code == 200
            out.append((time.perf_counter() - t0) * 1000)
    return out


def _settle(server: Served, target: int, timeout: float) -> float | None:
    """Seconds until the workers hold at most ``target`` client connections, or None."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if server.client_connections() <= target:
            return time.monotonic() - t0
        time.sleep(0.1)
    return None


def test_abandoned_long_polls_are_released_within_seconds(server: Served) -> None:
    gid, players = _game(server)
    version = requests.get(f"{server.url}/v1/games/{gid}", timeout=10).json()["version"]
    _healthz_ms(server, 3)
    before = server.client_connections()
    socks = [raw(server.port, get(f"/v1/games/{gid}/events?after={version}&wait=30", players[i % 2]["token"]))
             for i in range(300)]
    deadline = time.monotonic() + 20
    while server.client_connections() < before + 250 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.client_connections() >= before + 250, "the waits are held by the server"
    assert statistics.median(_healthz_ms(server)) < 100  # the server answers while they wait
    for s in socks:
        s.close()  # the clients walk away long before their 30 s
    released = _settle(server, before + 5, 10)
    assert released is not None and released < 5, f"released after {released} s"


def test_abandoned_streams_are_released_within_seconds(server: Served) -> None:
    """The same for Server-Sent Events, a game's stream and the account's: a stream says
    nothing for 15 s between heartbeats, so only the server's probe can notice a client gone."""
    gid, players = _game(server)
    version = requests.get(f"{server.url}/v1/games/{gid}", timeout=10).json()["version"]
    _healthz_ms(server, 3)
    before = server.client_connections()
    socks = [raw(server.port, get(f"/v1/games/{gid}/events/stream?after={version}", players[i % 2]["token"]))
             for i in range(150)]
    socks += [raw(server.port, get("/v1/me/stream", players[i % 2]["token"])) for i in range(150)]
    deadline = time.monotonic() + 20
    while server.client_connections() < before + 250 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.client_connections() >= before + 250, "the streams are held by the server"
    for s in socks:
        s.close()
    released = _settle(server, before + 5, 10)
    assert released is not None and released < 5, f"released after {released} s"


def test_stalled_headers_are_cut_off_and_do_not_block_others(server: Served) -> None:
    socks = [raw(server.port, b"GET /v1/rulesets HTTP/1.1\r\nHost: t\r\nX-Slow: ") for _ in range(100)]
    t0 = time.monotonic()
    assert max(_healthz_ms(server)) < 500
    for s in socks:
        s.settimeout(10)
        try:
            left = s.recv(100)
        except (ConnectionResetError, socket.timeout):
            left = b""
        assert left == b"" or left.startswith(b"HTTP/1.1 4"), left[:100]
        s.close()
    assert time.monotonic() - t0 < 8  # the header timeout is 2 s


def test_a_stalled_body_gets_408_within_the_body_timeout(server: Served) -> None:
    s = raw(server.port, b"POST /v1/players HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{\"name\": ")
    t0 = time.monotonic()
    s.settimeout(10)
    answer = b""
    while chunk := s.recv(4096):  # the server closes the connection after its answer
        answer += chunk
    took = time.monotonic() - t0
    s.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"application/problem+json" in answer and b"request-timeout" in answer
    assert 1.5 < took < 6
    assert max(_healthz_ms(server)) < 500


def test_commands_answer_while_a_thousand_clients_wait(server: Served) -> None:
    gid, players = _game(server)
    version = requests.get(f"{server.url}/v1/games/{gid}", timeout=10).json()["version"]
    socks = [raw(server.port, get(f"/v1/games/{gid}/events?after={version}&wait=30", players[0]["token"]))
             for _ in range(500)]
    socks += [raw(server.port, get(f"/v1/games/{gid}/events/stream?after={version}", players[1]["token"]))
              for _ in range(500)]
    try:
        time.sleep(1.0)
        for p in players:
            view = requests.get(f"{server.url}/v1/games/{gid}/view",
                                headers={"Authorization": f"Bearer {p['token']}"}, timeout=10).json()
            if view["seat"] in view["awaiting"] and view["legal_actions"]:
                t0 = time.perf_counter()
                r = requests.post(f"{server.url}/v1/games/{gid}/commands", json=view["legal_actions"][0],
                                  headers={"Authorization": f"Bearer {p['token']}"}, timeout=10)
                assert r.status_code == 200 and time.perf_counter() - t0 < 2
                break
        # every waiter hears the command: the long-polls answer, the streams send it
        woke, until = 0, time.monotonic() + 25  # a lost hint still ends at the timer re-check
        for s in socks[:500]:
            s.settimeout(max(0.1, until - time.monotonic()))
            if s.recv(65536).startswith(b"HTTP/1.1 200"):
                woke += 1
        assert woke == 500
        assert statistics.median(_healthz_ms(server)) < 100
    finally:
        for s in socks:
            s.close()


def test_no_delivery_is_lost_when_the_delivering_worker_is_killed_mid_send(db_factory: object) -> None:
    import os
    import signal

    with receiver() as rx, served(db_factory.new(), FACEDOWN_WEBHOOKS_ALLOW_PRIVATE="1",  # type: ignore[attr-defined]
                                  FACEDOWN_WEBHOOK_LEASE_SECONDS="3") as server:
        rx.delay = lambda n: 30.0 if n == 0 else 0.0  # the first send hangs: its worker is killed then
        gid, players = _game(server)
        for p in players:
            r = requests.post(server.url + "/v1/me/webhooks", json={"url": rx.url},
                              headers={"Authorization": f"Bearer {p['token']}"}, timeout=10)
            assert r.status_code == 201, r.text
        view = requests.get(f"{server.url}/v1/games/{gid}/view",
                            headers={"Authorization": f"Bearer {players[0]['token']}"}, timeout=10).json()
        mover = players[0] if view["seat"] in view["awaiting"] else players[1]
        view = requests.get(f"{server.url}/v1/games/{gid}/view",
                            headers={"Authorization": f"Bearer {mover['token']}"}, timeout=10).json()
        assert requests.post(f"{server.url}/v1/games/{gid}/commands", json=view["legal_actions"][0],
                             headers={"Authorization": f"Bearer {mover['token']}"}, timeout=10).status_code == 200
        first = rx.wait_for(1, 20)
        assert first, "a delivery started"
        for pid in server.workers():
            os.kill(pid, signal.SIGKILL)  # whoever was sending dies mid-send
        killed = first[0].headers["webhook-id"]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum(d.headers["webhook-id"] == killed for d in rx.received) < 2:
            time.sleep(0.1)
        assert sum(d.headers["webhook-id"] == killed for d in rx.received) >= 2, \
            "the killed send was delivered again, with the same webhook-id"


OUTAGE_SECONDS = 8.0  # the pool's old back-off (attempts 1, 3, 7, 15 s in) answered 5-6 s after this


def test_a_database_outage_answers_503_within_2_s_and_the_service_answers_within_2_s_of_its_return() -> None:
    """Requests during an outage get 503 at once, streams stay open, and within 2 s of the
    database's return the service answers again, however long it was away: the pool's
    reconnection attempts are never due more than ``events.db.RECONNECT_SECONDS`` after it
    (tests/events/test_fail_fast.py). Here after an outage long enough that the old back-off
    of 1, 2, 4, 8 s kept the service away 5-6 s more; longer ones cost the old code more."""
    import shutil
    import uuid

    from events.embedded import EmbeddedPostgres

    # a server of its own, stopped and started by the test (a new directory under /tmp, which
    # the embedded server's own user may own when the tests run as root)
    data = Path("/tmp") / f"facedown-outage-{uuid.uuid4().hex[:10]}" / "pg"
    pg = EmbeddedPostgres(data)
    url = pg.start()
    try:
        with served(url, workers=1) as server:
            token = server.player("outage")["token"]
            auth = {"Authorization": f"Bearer {token}"}
            stream_lines: list[bytes] = []
            box: dict[str, Any] = {}

            def listen() -> None:
                try:
                    with requests.get(server.url + "/v1/me/stream", headers=auth, stream=True, timeout=60,
                                      params={"max_seconds": 40}) as r:
                        for line in r.iter_lines():
                            stream_lines.append(line)
                except requests.RequestException:  # the server stops at the end of the test
                    return
                box["ended"] = True

            threading.Thread(target=listen, daemon=True).start()
            time.sleep(1)
            pg.stop()
            down = time.monotonic()
            # every request of the outage, not only the first (which may get a broken
            # connection at once): reads, a write, a registration and the readiness probe
            for _ in range(3):
                for method, path in (("GET", "/v1/games"), ("GET", "/v1/me"), ("POST", "/v1/games"),
                                     ("POST", "/v1/players"), ("GET", "/readyz")):
                    body = {"name": "late"} if path == "/v1/players" else {"ruleset": "pedro", "seats": 2}
                    t0 = time.monotonic()
                    r = requests.request(method, server.url + path, headers=auth, timeout=10,
                                         json=body if method == "POST" else None)
                    took = time.monotonic() - t0
                    assert r.status_code == 503 and took < 2, (method, path, r.status_code, took, r.text)
                    assert r.headers["Content-Type"] == "application/problem+json"
                    assert int(r.headers["Retry-After"]) > 0
            assert requests.get(server.url + "/healthz", timeout=5).status_code == 200
            while time.monotonic() - down < OUTAGE_SECONDS:  # clients keep asking all along
                assert requests.get(server.url + "/v1/games", headers=auth, timeout=10).status_code == 503
                time.sleep(0.2)
            pg.start()  # returns once the server accepts connections
            back = time.monotonic()
            while time.monotonic() - back < 30:
                try:
                    if requests.get(server.url + "/v1/games", headers=auth, timeout=5).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                time.sleep(0.05)
            recovered = time.monotonic() - back
            assert recovered < 2, f"answered again {recovered:.1f} s after the database was back"
            # the stream stayed open through the outage and still delivers
            game = requests.post(server.url + "/v1/games", json={"ruleset": "pedro", "seats": 2}, headers=auth,
                                 timeout=10)
            assert game.status_code == 201
            other = server.player("other")
            requests.post(f"{server.url}/v1/games/{game.json()['id']}/join",
                          headers={"Authorization": f"Bearer {other['token']}"}, timeout=10).raise_for_status()
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not any(b"game_started" in x for x in stream_lines):
                time.sleep(0.1)
            assert any(b"game_started" in x for x in stream_lines), stream_lines[-5:]
            assert "ended" not in box
    finally:
        pg.stop(force=True)
        shutil.rmtree(data.parent, ignore_errors=True)
