"""A server whose clock the test moves (the controllable clock of test_deadlines), and
small helpers to drive games through the lifecycle routes."""
from __future__ import annotations

import random
from collections.abc import Iterator, Set as AbstractSet

from datetime import datetime, timedelta, timezone
from typing import Any

from domain import bots
from tests.service.helpers import Live, Player, serve

HOUR, DAY = 3600, 86400


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def clocked(database_url: str, clock: Clock, **config: Any) -> Iterator[Live]:
    """A live server on ``clock``: turns of 1 h and final windows of 30 min unless a game says otherwise."""
    yield from serve(database_url, turn_timeout_seconds=HOUR, final_window_timeout_seconds=HOUR // 2,
                     extra={"clock": clock}, **config)


def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def open_game(live: Live, ruleset: str, seats: int, creator: Player | None = None, **body: Any
              ) -> tuple[str, list[Player]]:
    """A game opened by the first of ``seats`` new players (the others not seated yet)."""
    players = [creator or live.player(f"{ruleset}-0")] + [live.player(f"{ruleset}-{i}") for i in range(1, seats)]
    r = players[0].post("/v1/games", {"ruleset": ruleset, "seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()["id"], players


def started(live: Live, ruleset: str, seats: int = 2, **body: Any) -> tuple[str, list[Player]]:
    gid, players = open_game(live, ruleset, seats, **body)
    code = players[0].get(f"/v1/games/{gid}/invite_code").json().get("invite_code")
    for p in players[1:]:
        r = p.post(f"/v1/games/{gid}/join", {"invite_code": code} if code else {})
        assert r.status_code == 200, r.text
    return gid, players


def delete(player: Player, path: str) -> Any:
    return player._session().delete(player.live.url + path, headers=player.auth, timeout=40)


def api_of(live: Live) -> Any:
    return live.app.extensions["facedown"]


def play_greedy(p: Player, gid: str, rng: random.Random, avoid: AbstractSet[str] = frozenset()) -> bool:
    """The player moves if the game awaits them (as a client with a bot would), never with a
    command whose type is in ``avoid`` while another is legal."""
    view = p.get(f"/v1/games/{gid}/view").json()
    legal = [a for a in view["legal_actions"] if a["type"] not in avoid] or view["legal_actions"]
    if view["seat"] not in view["awaiting"] or not legal:
        return False
    action = bots.policy(view["ruleset"], "greedy")(view["table"], legal, rng, True)
    r = p.post(f"/v1/games/{gid}/commands", action)
    assert r.status_code == 200, r.text
    return True


def put(player: Player, path: str, body: Any) -> Any:
    return player._session().put(player.live.url + path, json=body, headers=player.auth, timeout=40)
