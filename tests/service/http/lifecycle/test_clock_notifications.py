"""The notifications of a game's clock and rounds: ``deadline_soon`` once per wait when a
fifth of it is left, ``timed_out`` to the seat the server played, ``round_over`` to every
seat, then ``game_over``; each in its player's gap-free sequence."""
from __future__ import annotations

from typing import Any

from service.usecases.sweep import sweep
from tests.service.helpers import Player
from tests.service.http.lifecycle.clocked import HOUR, Clock, api_of, started
from tests.service.helpers import Live


def _kinds(p: Player, gid: str) -> list[dict[str, Any]]:
    out = p.get("/v1/me/notifications", params={"after": 0, "limit": 500}).json()["notifications"]
    assert [n["seq"] for n in out] == list(range(1, len(out) + 1))
    return [n for n in out if n["game_id"] == gid]


def test_deadline_soon_comes_once_when_a_fifth_of_the_wait_is_left_and_timed_out_after_it(
        live: Live, clock: Clock) -> None:
    gid, players = started(live, "least-score", time_control={"turn_seconds": 10 * HOUR})
    awaited = players[0].get(f"/v1/games/{gid}").json()["awaiting"]
    assert len(awaited) == 1
    late, other = players[awaited[0]], players[1 - awaited[0]]
    clock.advance(7 * HOUR)  # 3 h of 10 left: not yet
    sweep(api_of(live))
    assert not [n for n in _kinds(late, gid) if n["kind"] == "deadline_soon"]
    clock.advance(HOUR + 60)  # under 2 h left
    sweep(api_of(live))
    sweep(api_of(live))  # a second sweep adds nothing
    soon = [n for n in _kinds(late, gid) if n["kind"] == "deadline_soon"]
    assert len(soon) == 1 and soon[0]["seats"] == awaited and soon[0]["data"]["kind"] == "turn"
    assert not [n for n in _kinds(other, gid) if n["kind"] == "deadline_soon"]
    clock.advance(2 * HOUR)
    assert sweep(api_of(live)).commands_sent >= 1
    timed_out = [n for n in _kinds(late, gid) if n["kind"] == "timed_out"]
    assert len(timed_out) == 1 and timed_out[0]["seats"] == awaited
    assert not [n for n in _kinds(other, gid) if n["kind"] == "timed_out"]
    assert _kinds(other, gid)[-1]["kind"] == "your_turn"  # the game moved on to the other seat


def test_every_seat_hears_round_over_at_each_rounds_end_and_game_over_at_the_last(live: Live, clock: Clock) -> None:
    gid, players = started(live, "least-score", time_control={"turn_seconds": HOUR},
                           options={"elimination_threshold": 100, "common.round_turn_limit": 2})
    for _ in range(600):  # nobody moves: the server plays every turn, two turns a round
        clock.advance(HOUR)
        sweep(api_of(live))
        if players[0].get(f"/v1/games/{gid}").json()["status"] == "finished":
            break
    game = players[0].get(f"/v1/games/{gid}").json()
    assert game["status"] == "finished" and game["round"] >= 2
    for p in players:
        notes = _kinds(p, gid)
        rounds = [n["data"]["round"] for n in notes if n["kind"] == "round_over"]
        assert rounds == list(range(1, game["round"] + 1))
        assert notes[-1]["kind"] == "game_over" and notes[-1]["data"]["status"] == "finished"
        assert [n["kind"] for n in notes].count("game_over") == 1
