"""Whole four-seat games over real HTTP, played by bots that see only their own /view,
then every seat's and the spectator's view and events checked against the full truth (and
every player's notifications for cards).

The truth is read straight from the event log (not through the API). What each seat
may see is computed here from the truth with the ruleset's own ``redact``/``view``
(whose no-leak property the domain tests check card by card); this test checks that the
API adds nothing to it: no server-only field (stock orders, the secret before it is
revealed, who sent which command), no event a seat should not get, no other seat's view.
"""
from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
import requests

from domain import bots, codec, rules
from domain.ruleset import fold
from events.db import Database
from events.store import EventStore
from service.tools.contract.conformance import SHORT
from tests.service.conftest import RULESETS
from tests.service.helpers import Live, Player, start_game
from tests.service.http.test_notifications import CARD, _all as _all_notifications

SERVICE = {"GameOpened", "SeatTaken", "SecretRevealed"}


def _policy(name: str) -> Any:
    try:
        return bots.policy(name, "greedy")
    except (ImportError, AttributeError, KeyError):
        return bots.random_policy


def _all_events(get: Any, gid: str) -> list[dict[str, Any]]:
    out, after = [], 0
    while True:
        page = get(f"/v1/games/{gid}/events", params={"after": after, "limit": 1000}).json()
        out += page["events"]
        after = page["next_after"]
        if not page["more"]:
            return out


def _truth(live: Live, gid: str) -> list[Any]:
    db = Database(live.database_url, max_size=1)
    try:
        return EventStore(db).read(uuid.UUID(gid))
    finally:
        db.close()


def _expected_events(ruleset: Any, truth: list[Any], seat: int | None) -> list[dict[str, Any]]:
    out = []
    for rec in truth:
        if rec.type in SERVICE:
            data = dict(rec.data)
        else:
            shown = ruleset.redact(codec.build(ruleset.event_types[rec.type], rec.data), seat)
            if shown is None:
                continue
            data = {k: v for k, v in shown.items() if k != "type"}
            if str(data.get("rule", "")).startswith("RULES"):  # clients get the game's rules page instead
                data["rule"] = f"docs/rules/{ruleset.name}.md"
        out.append({"version": rec.version, "type": rec.type, "actor": rec.metadata["actor"],
                    "at": rec.metadata["at"], "data": json.loads(json.dumps(data))})
    return out


def play(live: Live, name: str, seed: int) -> tuple[str, list[Player], list[str]]:
    rng = random.Random(seed)
    # a few rounds of a few turns (the conformance kit's games): every kind of event and view
    # still comes, without the hundreds of turns of a Corte game to 100
    gid, players = start_game(live, name, options=SHORT[name])
    policy = _policy(name)
    seen_payloads: list[str] = []
    for _ in range(20000):
        # seat 0's view every step; the others' only as far as the bots look (in the same
        # random order, so the game is the one all four views would have given)
        views = {0: players[0].get(f"/v1/games/{gid}/view").json()}
        seen_payloads.append(json.dumps(views[0]))
        if views[0]["status"] == "finished":
            return gid, players, seen_payloads
        awaited = set(views[0]["awaiting"])
        chosen = None
        for seat in rng.sample(range(4), 4):
            if seat not in views:
                views[seat] = players[seat].get(f"/v1/games/{gid}/view").json()
            v = views[seat]
            assert v["seat"] == seat and v["version"] == views[0]["version"]
            actions = v["legal_actions"]
            if not actions:
                continue
            action = policy(v["table"], actions, rng, seat in awaited)
            if action is None and seat in awaited:
                action = rng.choice(actions)
            if action is not None:
                chosen = (seat, action)
                break
        assert chosen is not None, "nobody can act"
        seat, action = chosen
        r = players[seat].post(f"/v1/games/{gid}/commands", action, headers={"Idempotency-Key": uuid.uuid4().hex})
        assert r.status_code == 200, (action, r.text)
    raise AssertionError("game did not end")


@pytest.fixture(scope="module")
def finished(live: Live) -> dict[str, Any]:
    """Every ruleset's game, played concurrently (the server is threaded)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(RULESETS)) as pool:
        futures = {name: pool.submit(play, live, name, 7) for name in RULESETS}
        return {name: f.result() for name, f in futures.items()}


@pytest.mark.parametrize("name", RULESETS)
def test_bots_play_a_four_seat_game_to_the_end_and_nobody_sees_more_than_its_share(
        live: Live, finished: dict[str, Any], name: str) -> None:
    ruleset = rules.get(name)
    gid, players, payloads = finished[name]
    truth = _truth(live, gid)
    assert truth[-1].type == "SecretRevealed"
    secret = truth[-1].data["secret"]
    state = fold(ruleset, [codec.build(ruleset.event_types[r.type], r.data) for r in truth if r.type not in SERVICE])
    assert ruleset.is_terminal(state)
    # the secret appears nowhere before it is revealed
    assert not any(secret in p for p in payloads[:-1])
    spectator = lambda path, **kw: requests.get(live.url + path, timeout=30, **kw)  # noqa: E731
    for seat, getter in [(None, spectator)] + [(i, p.get) for i, p in enumerate(players)]:
        got = _all_events(getter, gid)
        assert got == _expected_events(ruleset, truth, seat)
        for ev in got:
            assert set(ev) == {"version", "type", "actor", "at", "data"}  # no command, player or command id
            if ev["type"] != "SecretRevealed":
                assert secret not in json.dumps(ev)
            if isinstance(ev["data"].get("order"), list):  # stock orders are server-only until revealed
                assert all(c is None for c in ev["data"]["order"])
        v = getter(f"/v1/games/{gid}/view").json()
        assert v["seat"] == seat and v["table"] == json.loads(json.dumps(ruleset.view(state, seat)))
        assert v["legal_actions"] == []
    summary = spectator(f"/v1/games/{gid}").json()
    assert summary["status"] == "finished" and summary["secret"] == secret
    # the account channel too: every player's notifications of the whole game name no card
    for p in players:
        notes = _all_notifications(p)
        assert {"game_started", "game_over"} <= {n["kind"] for n in notes if n["game_id"] == gid}
        assert not CARD.findall(json.dumps(notes)), CARD.findall(json.dumps(notes))[:5]
