"""A live server on a loopback port (werkzeug, threaded) and a small HTTP client."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests
import logging

from werkzeug.serving import make_server

logging.getLogger("werkzeug").setLevel(logging.WARNING)


@dataclass
class Live:
    url: str
    database_url: str
    app: Any

    def player(self, name: str = "p") -> Player:
        r = requests.post(self.url + "/v1/players", json={"name": name}, timeout=10)
        assert r.status_code == 201, r.text
        body = r.json()
        return Player(self, body["id"], body["name"], body["token"])


@dataclass
class Player:
    live: Live
    id: str
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def _session(self) -> requests.Session:
        local = _SESSIONS.__dict__
        s = local.get(self.token)
        if s is None:
            s = local[self.token] = requests.Session()
            # the test's own server on 127.0.0.1: no proxy or .netrc of the environment applies,
            # and looking them up at every request was a twentieth of the API tests' own CPU
            s.trust_env = False
        return s

    def get(self, path: str, **kw: Any) -> requests.Response:
        headers = {**self.auth, **kw.pop("headers", {})}
        return self._session().get(self.live.url + path, headers=headers, timeout=kw.pop("timeout", 40), **kw)

    def delete(self, path: str, **kw: Any) -> requests.Response:
        headers = {**self.auth, **kw.pop("headers", {})}
        return self._session().delete(self.live.url + path, headers=headers, timeout=kw.pop("timeout", 40), **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> requests.Response:
        headers = {**self.auth, **kw.pop("headers", {})}
        return self._session().post(self.live.url + path, json=body, headers=headers,
                                    timeout=kw.pop("timeout", 40), **kw)


_SESSIONS = threading.local()


QUICK_POLL = 0.02
"""Seconds between a test server's checks for shutdown."""


def serve(database_url: str, **config: Any) -> Iterator[Live]:
    from service.http.app import close_app, create_app

    app = create_app({"database_url": database_url, "pool_size": 16, **config})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # shutdown() waits for the loop's next poll: at the default 0.5 s that was most of every
    # test's teardown (a server per lifecycle test)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": QUICK_POLL}, daemon=True)
    thread.start()
    try:
        yield Live(f"http://127.0.0.1:{server.server_port}", database_url, app)
    finally:
        server.shutdown()
        close_app(app)


def start_game(live: Live, ruleset: str, seats: int = 4, options: dict[str, Any] | None = None
               ) -> tuple[str, list[Player]]:
    players = [live.player(f"{ruleset}-{i}") for i in range(seats)]
    r = players[0].post("/v1/games", {"ruleset": ruleset, "seats": seats, "options": options or {}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for p in players[1:]:
        j = p.post(f"/v1/games/{gid}/join", {})
        assert j.status_code == 200, j.text
    return gid, players


def acting(gid: str, players: list[Player]) -> tuple[Player, dict[str, Any]]:
    """The first player the game awaits who has a legal action, with its view."""
    for p in players:
        v = p.get(f"/v1/games/{gid}/view").json()
        if v["seat"] in v["awaiting"] and v["legal_actions"]:
            return p, v
    raise AssertionError("nobody can act")
