"""Bots that play tournaments through the API: players registered with the SDK, and every
table of a round played to its end by greedy bots, one client per seat."""
from __future__ import annotations

from typing import Any

from domain import bots
from facedown_client import Client, play_seats

RULESET = "cuatro-cartas"
#: one round of a few turns: a table is a dozen commands
SHORT = {"rounds": 1, "common.round_turn_limit": 2}


def players(url: str, n: int, prefix: str) -> dict[str, Client]:
    """``n`` new players, by id (in the order they registered)."""
    out = {}
    for i in range(n):
        c = Client(url)
        out[c.register(f"{prefix}-{i}").id] = c
    return out


def open_tournament(creator: Client, **fields: Any) -> dict[str, Any]:
    body = {"name": "cup", "ruleset": RULESET, "options": SHORT, "max_players": 8, "duplicate": False, **fields}
    return creator.request("POST", "/v1/tournaments", body)  # type: ignore[no-any-return]


def play_round(t: dict[str, Any], by_id: dict[str, Client], seed: int = 0) -> None:
    """Every table of the tournament's current round, played to its end."""
    current = t["rounds"][-1]
    for table in current["tables"]:
        seats = [by_id[p] for p in table["players"]]
        play_seats(seats, table["game_id"], bots.policy(RULESET, "greedy"), seed=seed)
