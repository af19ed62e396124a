"""Timeouts and votes: after a seat has timed out FACEDOWN_TIMEOUTS_BEFORE_VOTE turns in a
row, the other players may vote to give it to a server bot or to abort the game; a
majority of them decides. The bot plays through the same rules as the seat's ordinary
commands, and its player may take the seat back."""
from __future__ import annotations

import random
import uuid
from typing import Any

from service.audit.export import export_game
from service.usecases.sweep import sweep
from tests.browser.play import CALLS  # each ruleset's round-ending call, as the browser games name them
from tests.service.helpers import Live, Player
from tests.service.http.lifecycle.clocked import Clock, HOUR, api_of, play_greedy, started

SHORT = {"elimination_threshold": 25}


def _game(p: Player, gid: str) -> dict[str, Any]:
    return dict(p.get(f"/v1/games/{gid}").json())


def _seat(p: Player, gid: str) -> int:
    return next(s["seat"] for s in _game(p, gid)["seats"] if s["player_id"] == p.id)


def _time_out(live: Live, clock: Clock, gid: str, absent: Player, present: list[Player], turns: int) -> None:
    """``absent`` lets ``turns`` of their turns in a row time out while the ``present`` play,
    never calling: a call could end a short game before the seat has timed out enough."""
    rng = random.Random(7)
    seat = _seat(absent, gid)
    for _ in range(500):
        game = _game(absent, gid)
        assert game["status"] == "active", "the game ended before the seat timed out enough"
        if game["seats"][seat]["timeouts_in_row"] >= turns:
            return
        if not any(play_greedy(p, gid, rng, avoid=CALLS) for p in present):
            clock.advance(HOUR + 1)
            sweep(api_of(live))
    raise AssertionError("the seat did not time out")


def test_after_three_timeouts_a_vote_replaces_the_seat_with_a_bot_and_the_game_finishes(live: Live,
                                                                                        clock: Clock) -> None:
    gid, (ann, bob) = started(live, "least-score", options=SHORT)
    early = bob.post(f"/v1/games/{gid}/votes", {"kind": "replace_with_bot"})
    assert early.status_code == 409 and early.json()["type"].endswith("/vote-not-open")
    _time_out(live, clock, gid, ann, [bob], 3)
    r = bob.post(f"/v1/games/{gid}/votes", {"kind": "replace_with_bot"})
    assert r.status_code == 200, r.text
    seat = next(s for s in r.json()["seats"] if s["player_id"] == ann.id)
    assert seat["status"] == "bot"
    # ann's view lists nothing to send while the bot plays for her
    assert ann.get(f"/v1/games/{gid}/view").json()["legal_actions"] == []
    rng = random.Random(3)
    voted_at, bot_moved = r.json()["version"], False
    for _ in range(2000):
        if _game(bob, gid)["status"] == "finished":
            break
        # bob does not call before the bot's first turn: a call ends the round at once in
        # Least Score, and with a deal that puts ann past the threshold, the game with it
        if not play_greedy(bob, gid, rng, avoid=frozenset() if bot_moved else CALLS):
            sweep(api_of(live))  # the bot moves at once after bob; this only catches up
        bot_moved = bot_moved or any(e.get("bot") == "greedy" for e in bob.get(
            f"/v1/games/{gid}/events", params={"after": voted_at}).json()["events"])
    game = _game(bob, gid)
    assert game["status"] == "finished" and game["secret"] is not None and game["winners"]
    events = bob.get(f"/v1/games/{gid}/events", params={"limit": 1000}).json()["events"]
    assert any(e["actor"] == seat["seat"] and e.get("bot") == "greedy" for e in events)
    export = export_game(api_of(live).store, uuid.UUID(gid))
    assert export["verification"]["ok"], export["verification"]["failures"][:3]
    bot_moves = [e for e in export["events"] if e["metadata"].get("bot") == "greedy"]
    assert bot_moves and {e["metadata"]["actor"] for e in bot_moves} == {seat["seat"]}


def test_a_majority_of_the_other_players_decides_and_each_votes_once(live: Live, clock: Clock) -> None:
    gid, (ann, bob, cat) = started(live, "least-score", seats=3)
    _time_out(live, clock, gid, ann, [bob, cat], 3)
    seat = _seat(ann, gid)
    assert ann.post(f"/v1/games/{gid}/votes", {"kind": "abort"}).status_code == 409  # nobody else timed out
    first = bob.post(f"/v1/games/{gid}/votes", {"kind": "abort"})
    assert first.status_code == 200 and first.json()["status"] == "active"
    assert first.json()["votes"] == [{"seat": seat, "voter": next(s["seat"] for s in first.json()["seats"]
                                                                  if s["player_id"] == bob.id), "kind": "abort"}]
    again = bob.post(f"/v1/games/{gid}/votes", {"kind": "abort"})
    assert again.status_code == 409 and again.json()["type"].endswith("/already-voted")
    assert bob.post(f"/v1/games/{gid}/votes", {"kind": "surrender"}).status_code == 422
    done = cat.post(f"/v1/games/{gid}/votes", {"kind": "abort", "seat": seat})
    assert done.status_code == 200 and done.json()["status"] == "aborted"
    assert done.json()["secret"] is not None and done.json()["deadline"] is None  # the deal can be checked
    export = export_game(api_of(live).store, uuid.UUID(gid))
    assert export["verification"]["ok"], export["verification"]["failures"][:3]


def test_a_player_takes_their_seat_back_from_the_bot(live: Live, clock: Clock) -> None:
    gid, (ann, bob) = started(live, "pedro")
    _time_out(live, clock, gid, ann, [bob], 3)
    assert bob.post(f"/v1/games/{gid}/votes", {"kind": "replace_with_bot"}).status_code == 200
    assert bob.post(f"/v1/games/{gid}/reclaim").status_code == 409  # not bob's seat
    r = ann.post(f"/v1/games/{gid}/reclaim")
    assert r.status_code == 200, r.text
    seat = next(s for s in r.json()["seats"] if s["player_id"] == ann.id)
    assert seat["status"] == "playing" and seat["timeouts_in_row"] == 0
    assert ann.post(f"/v1/games/{gid}/reclaim").json()["type"].endswith("/seat-not-replaced")


def test_a_seat_that_moves_clears_its_timeouts_and_the_votes_on_it(live: Live, clock: Clock) -> None:
    gid, (ann, bob, cat) = started(live, "least-score", seats=3)
    rng = random.Random(2)
    _time_out(live, clock, gid, ann, [bob, cat], 3)
    seat = _seat(ann, gid)
    assert bob.post(f"/v1/games/{gid}/votes", {"kind": "replace_with_bot"}).status_code == 200
    for _ in range(10):
        if play_greedy(ann, gid, rng):
            break
        assert play_greedy(bob, gid, rng) or play_greedy(cat, gid, rng)
    game = _game(ann, gid)
    assert game["seats"][seat]["timeouts_in_row"] == 0 and game["votes"] == []
    assert cat.post(f"/v1/games/{gid}/votes", {"kind": "replace_with_bot"}).status_code == 409
