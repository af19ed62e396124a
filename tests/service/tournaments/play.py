"""Bots that play tournaments through the API: players registered with the SDK, every table
of a round played to its end by greedy bots (one client per seat), and the points of a round
recomputed from the games' own summaries, independently of the service's standings."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from domain import bots
from facedown_client import Client, play_turns

RULESET = "cuatro-cartas"
#: one round of a few turns: a table is a dozen commands
SHORT = {"rounds": 1, "common.round_turn_limit": 1}


def players(url: str, n: int, prefix: str) -> dict[str, Client]:
    """``n`` new players, by id (in the order they registered)."""
    out = {}
    for i in range(n):
        c = Client(url)
        out[c.register(f"{prefix}-{i}").id] = c
    return out


def open_tournament(creator: Client, **fields: Any) -> dict[str, Any]:
    """A tournament of short tables, through the SDK (its creator in it)."""
    return creator.create_tournament(**{"name": "cup", "ruleset": RULESET, "options": SHORT, "max_players": 8,
                                        **fields})


def fill(t: dict[str, Any], clients: dict[str, Client]) -> dict[str, Any]:
    """Every player not in it yet joins (the last join starts it)."""
    for pid, c in clients.items():
        if all(p["id"] != pid for p in t["players"]):
            t = c.join_tournament(t["id"])
    return t


def play_round(t: dict[str, Any], clients: dict[str, Client], seed: int = 0) -> None:
    """Every table of the tournament's current round, played to its end (each table by bots
    seeded apart, so that tables of one board play it differently)."""
    for i, table in enumerate(t["rounds"][-1]["tables"]):
        seats = [clients[p] for p in table["players"]]
        play_turns(seats, table["game_id"], bots.policy(RULESET, "greedy"), random.Random(seed + 7 * i))


def seated_once(r: dict[str, Any], everyone: set[str]) -> None:
    """Each player at one table of the round, or on a bye: never twice, never left out."""
    seen = Counter(p for table in r["tables"] for p in table["players"]) + Counter(r["byes"])
    assert set(seen) == everyone and set(seen.values()) == {1}, seen


def ranks(game: dict[str, Any]) -> list[tuple[int, int]]:
    """Each seat's (rank, score), from the game's summary: winners first, then by score
    (lower is better), equal results sharing a rank."""
    winners, scores = set(game["winners"] or ()), game["scores"]
    keys = [(0 if s in winners else 1, scores[s]) for s in range(len(scores))]
    return [(1 + sum(1 for k in keys if k < mine), scores[s]) for s, mine in enumerate(keys)]


def expected_points(games: list[dict[str, Any]], duplicate: bool) -> Counter[str]:
    """One round's points: by place at the table (last 0, one more per place above, ties
    share), or with a board the matchpoints seat against seat (1 per table beaten, ½ a tie)."""
    out: Counter[str] = Counter()
    results = [(g, ranks(g)) for g in games]
    for g, ranked in results:
        players = [s["player_id"] for s in g["seats"]]
        for seat, p in enumerate(players):
            if duplicate:
                mine = ranked[seat]
                out[p] += sum(1.0 if mine < other[seat] else 0.5 if mine == other[seat] else 0.0
                              for h, other in results if h is not g)
            else:
                rank = ranked[seat][0]
                level = sum(1 for r, _ in ranked if r == rank)
                out[p] += sum(len(players) - (rank + i) for i in range(level)) / level
    return out
