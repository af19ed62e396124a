"""Ratings per ruleset (docs/ratings.md), through the API on a clock the test moves: every
rating equals a recomputation with the same package (openskill's Plackett–Luce, its
defaults, one update per game, each seat a team of one) from what the finished games show,
over games of 2 to 4 seats with shared ranks, resignations and a seat given to a bot after
its timeouts; unrated games and games of bot accounts change nothing; and
``facedown ratings rebuild --check`` finds a rating changed by hand."""
from __future__ import annotations

import random
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from service.entrypoints.cli import main
from service.usecases.sweep import sweep
from tests.service.helpers import Live, Player
from tests.service.http.lifecycle.clocked import Clock, HOUR, api_of, play_greedy

SHORT = {"rounds": 1}  # cuatro-cartas: one round, a game of a few dozen commands


def _game(p: Player, gid: str) -> dict[str, Any]:
    return dict(p.get(f"/v1/games/{gid}").json())


def _open(players: list[Player], ruleset: str, options: dict[str, Any] | None = None, **body: Any) -> str:
    r = players[0].post("/v1/games", {"ruleset": ruleset, "seats": len(players), "options": options or {}, **body})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/v1/games/{gid}/join", {}).status_code == 200
    return str(gid)


def _to_the_end(live: Live, clock: Clock, gid: str, players: list[Player], absent: Player | None = None) -> None:
    """The players play greedily until the game is over; ``absent`` never moves: its turns
    time out, and after three in a row the others vote a bot onto its seat."""
    rng = random.Random(5)
    present = [p for p in players if p is not absent]
    for _ in range(3000):
        game = _game(present[0], gid)
        if game["status"] == "finished":
            return
        if absent is not None:
            seat = next(s for s in game["seats"] if s["player_id"] == absent.id)
            if seat["status"] == "playing" and seat["timeouts_in_row"] >= 3:
                for voter in present[:2]:
                    assert voter.post(f"/v1/games/{gid}/votes", {"kind": "replace_with_bot"}).status_code == 200
                continue
        if not any(play_greedy(p, gid, rng) for p in present):
            clock.advance(HOUR + 1)
            sweep(api_of(live))
    raise AssertionError("the game did not end")


def _ranks(game: dict[str, Any]) -> list[int]:
    """The ranks recomputed from what the finished game shows (docs/ratings.md)."""
    winners, scores = game["winners"] or [], game["scores"] or [0] * len(game["seats"])
    key = [(2, 0) if s["status"] in ("resigned", "bot") else (0, 0) if s["seat"] in winners else (1, scores[s["seat"]])
           for s in game["seats"]]
    return [1 + sum(k < mine for k in key) for mine in key]


def _recompute(games: list[dict[str, Any]]) -> dict[tuple[str, str], Any]:
    model = PlackettLuce()
    now: dict[tuple[str, str], Any] = {}
    for game in games:
        ids = [(game["ruleset"], s["player_id"]) for s in game["seats"]]
        teams = [[now.get(k) or model.rating()] for k in ids]
        for k, team in zip(ids, model.rate(teams, ranks=_ranks(game))):
            now[k] = team[0]
    return now


def _board(p: Player, ruleset: str, players: list[Player]) -> list[dict[str, Any]]:
    """The leaderboard, read page by page, with only these players (a shared database may
    hold other tests' players)."""
    ids = {q.id for q in players}
    out, cursor = [], None
    while True:
        r = p.get(f"/v1/ratings/{ruleset}", params={"limit": 2, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.text
        out += r.json()["ratings"]
        cursor = r.json()["next_cursor"]
        if cursor is None:
            assert [e["rating"] for e in out] == sorted((e["rating"] for e in out), reverse=True)
            return [e for e in out if e["player"]["id"] in ids]


def _check(url: str) -> Any:
    return CliRunner().invoke(main, ["ratings", "rebuild", "--check"], env={"DATABASE_URL": url})


def test_ratings_are_openskill_over_the_games_in_the_order_they_ended(live: Live, clock: Clock) -> None:
    ann, bob, cat, dan = everyone = [live.player(n) for n in ("ann", "bob", "cat", "dan")]
    ended = []
    # two seats, played to the end
    g1 = _open([ann, bob], "cuatro-cartas", SHORT)
    _to_the_end(live, clock, g1, [ann, bob])
    ended.append(g1)
    # three seats: two resign (they share the last rank), the last one left wins
    g2 = _open([cat, ann, dan], "cuatro-cartas", SHORT)
    for p in (ann, dan):
        assert p.post(f"/v1/games/{g2}/resign").status_code == 200
    ended.append(g2)
    # four seats: dan's turns time out, a bot takes his seat (he ranks last), the rest play on
    g3 = _open([bob, cat, dan, ann], "cuatro-cartas", SHORT)
    _to_the_end(live, clock, g3, [bob, cat, dan, ann], absent=dan)
    ended.append(g3)
    # the same players in another ruleset: a rating per ruleset
    g4 = _open([dan, bob], "pedro")
    assert bob.post(f"/v1/games/{g4}/resign").status_code == 200
    ended.append(g4)

    games = [_game(ann, g) for g in ended]
    assert [g["status"] for g in games] == ["finished"] * 4 and all(g["rated"] for g in games)
    g3_seats = {s["player_id"]: s for s in games[2]["seats"]}
    assert g3_seats[dan.id]["status"] == "bot"
    assert sorted(_ranks(games[1])) == [1, 2, 2]  # a shared rank
    want = _recompute(games)

    for ruleset in ("cuatro-cartas", "pedro"):
        board = _board(ann, ruleset, everyone)
        mine = {(ruleset, e["player"]["id"]): e for e in board}
        assert set(mine) == {k for k in want if k[0] == ruleset}
        for k, e in mine.items():
            assert e["mu"] == pytest.approx(want[k].mu, abs=1e-9) and e["sigma"] == pytest.approx(want[k].sigma, abs=1e-9)
            assert e["rating"] == pytest.approx(e["mu"] - 3 * e["sigma"], abs=1e-9)
            assert e["provisional"] is True and e["player"]["bot"] is False
    assert {e["player"]["id"]: e["games"] for e in _board(ann, "cuatro-cartas", everyone)} == {
        ann.id: 3, bob.id: 2, cat.id: 2, dan.id: 2}

    # each finished game shows its changes, each profile its history, game by game
    for game in games:
        changes = game["rating_changes"]
        assert [c["seat"] for c in changes] == [s["seat"] for s in game["seats"]]
        assert [c["rank"] for c in changes] == _ranks(game)
    profile = ann.get(f"/v1/players/{ann.get('/v1/me').json()['handle']}").json()
    history = profile["ratings"]["cuatro-cartas"]["history"]
    assert [h["game_id"] for h in history] == [g1, g2, g3]
    assert history[0]["after"] == history[1]["before"] and history[1]["after"] == history[2]["before"]
    assert history[-1]["after"]["mu"] == pytest.approx(want[("cuatro-cartas", ann.id)].mu, abs=1e-9)

    # the game_over notification carries the player's own change
    notes = ann.get("/v1/me/notifications", params={"after": 0, "limit": 500}).json()["notifications"]
    over = [n for n in notes if n["kind"] == "game_over" and n["game_id"] == g1]
    assert over and over[0]["data"]["rating"] == {k: v for k, v in history[0].items() if k in ("before", "after")}

    # a rebuild from the logs gives the same; a rating changed by hand is found
    assert _check(live.database_url).exit_code == 0
    with psycopg.connect(live.database_url, autocommit=True) as conn:
        conn.execute("UPDATE ratings SET mu = mu + 0.5 WHERE player_id = %s AND ruleset = 'pedro'", (bob.id,))
    result = _check(live.database_url)
    assert result.exit_code == 1 and bob.id in result.output and "ratings" in result.output
    rebuilt = CliRunner().invoke(main, ["ratings", "rebuild"], env={"DATABASE_URL": live.database_url})
    assert rebuilt.exit_code == 0, rebuilt.output
    assert _check(live.database_url).exit_code == 0
    assert {e["player"]["id"]: e["mu"] for e in _board(ann, "pedro", everyone)}[bob.id] == pytest.approx(
        want[("pedro", bob.id)].mu, abs=1e-9)


def test_unrated_games_and_games_of_bot_accounts_change_nothing(live: Live, clock: Clock) -> None:
    ann, bob = live.player("ann"), live.player("bob")
    r = ann._session().post(live.url + "/v1/players", json={"name": "robo", "bot": True}, timeout=10)
    assert r.status_code == 201 and r.json()["bot"] is True
    robo = Player(live, r.json()["id"], "robo", r.json()["token"])

    unrated = _open([ann, bob], "pedro", rated=False)
    assert _game(ann, unrated)["rated"] is False
    assert bob.post(f"/v1/games/{unrated}/resign").status_code == 200
    with_bot = _open([ann, robo], "pedro")
    game = _game(ann, with_bot)
    assert game["rated"] is False and [s["bot"] for s in game["seats"]] == [False, True]
    assert robo.post(f"/v1/games/{with_bot}/resign").status_code == 200

    for gid in (unrated, with_bot):
        game = _game(ann, gid)
        assert game["status"] == "finished" and game["rating_changes"] is None
    assert _board(ann, "pedro", [ann, bob, robo]) == []
    profile = ann.get(f"/v1/players/{robo.get('/v1/me').json()['handle']}").json()
    assert profile["bot"] is True and profile["ratings"] == {}
    assert _check(live.database_url).exit_code == 0


def test_ranks_put_winners_first_then_scores_and_the_gone_last() -> None:
    from service.model.ratings import ranks_of

    assert ranks_of([2], [10, 4, 1, 4], []) == [4, 2, 1, 2]  # equal scores share a rank
    assert ranks_of([0, 1], [3, 3, 9], [2]) == [1, 1, 3]  # shared winners
    assert ranks_of([0], [0, 1, 2, 3], [1, 3]) == [1, 3, 2, 3]  # the gone share the last rank
