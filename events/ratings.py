"""Ratings per ruleset: a projection of the game logs (sql/030_ratings.sql).

* ``ratings``: each player's current rating in each ruleset (mu, sigma, mu − 3σ, games);
* ``rating_history``: one row per rated game of a player, numbered per player and ruleset;
* ``game_ratings``: a rated game's changes, per seat, as the game shows them.

Written only by the append that ends a rated game (:func:`effect`, applied by
``fd_apply_ratings`` under each player's row lock) or, as the owner, by a rebuild from the
logs (:func:`clear`, then the same effect through ``apply_effect``).
"""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.db import Database


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's change in one rated game (what the effect writes, per seat)."""

    player_id: str
    seat: int
    rank: int
    games: int  # the rated games the rating before counts
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class Row:
    player_id: uuid.UUID
    ruleset: str
    mu: float
    sigma: float
    rating: float
    games: int
    name: str = ""
    handle: str | None = None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class History:
    ruleset: str
    n: int
    game_id: uuid.UUID
    seat: int
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: datetime


def effect(ruleset: str, entries: Sequence[Entry], at: datetime | None = None) -> dict[str, Any]:
    """The ratings' update as an effect of the append that ends the game (its transaction:
    its time is the game's end), or of a rebuild (``at``: when the game ended)."""
    return {"op": "ratings", "row": {"ruleset": ruleset, "at": None if at is None else at.isoformat(), "players": [
        {"player_id": e.player_id, "seat": e.seat, "rank": e.rank, "games": e.games, "mu_before": e.mu_before,
         "sigma_before": e.sigma_before, "mu_after": e.mu_after, "sigma_after": e.sigma_after} for e in entries]}}


def current(db: Database, ruleset: str, player_ids: Sequence[str]) -> dict[str, tuple[float, float, int]]:
    """player id -> (mu, sigma, games) of those who have a rating in the ruleset. One read per
    player, by their key: on Citus each goes to the player's one shard."""
    out = {}
    with db.connection() as conn:
        for p in player_ids:
            row = conn.execute("SELECT mu, sigma, games FROM ratings WHERE player_id = %s AND ruleset = %s",
                               (uuid.UUID(p), ruleset)).fetchone()
            if row is not None:
                out[p] = (row[0], row[1], row[2])
    return out


_BOARD = ("SELECT t.player_id, t.ruleset, t.mu, t.sigma, t.rating, t.games, p.name, p.handle, p.bot"
          " FROM ratings t JOIN players p ON p.player_id = t.player_id")


def board(db: Database, ruleset: str, after: tuple[float, uuid.UUID] | None, limit: int) -> list[Row]:
    """A page of the ruleset's leaderboard, best first (rating, then player id), after a key."""
    where = " WHERE t.ruleset = %s"
    params: list[Any] = [ruleset]
    if after is not None:
        where += " AND (t.rating < %s OR (t.rating = %s AND t.player_id > %s))"
        params += [after[0], after[0], after[1]]
    with db.connection() as conn:
        return [Row(*r) for r in conn.execute(
            _BOARD + where + " ORDER BY t.rating DESC, t.player_id LIMIT %s", (*params, limit))]


def of_player(db: Database, player_id: uuid.UUID) -> tuple[list[Row], list[History]]:
    """A player's ratings (by ruleset) and their history (oldest first)."""
    with db.connection() as conn:
        rows = [Row(*r) for r in conn.execute(
            _BOARD + " WHERE t.player_id = %s ORDER BY t.ruleset", (player_id,))]
        history = [History(*r) for r in conn.execute(
            "SELECT ruleset, n, game_id, seat, rank, mu_before, sigma_before, mu_after, sigma_after, at"
            " FROM rating_history WHERE player_id = %s ORDER BY ruleset, n", (player_id,))]
    return rows, history


def of_game(db: Database, game_id: uuid.UUID) -> list[dict[str, Any]] | None:
    """A rated game's changes per seat as the effect wrote them, or ``None``."""
    with db.connection() as conn:
        row = conn.execute("SELECT changes FROM game_ratings WHERE stream_id = %s", (game_id,)).fetchone()
    return None if row is None else list(row[0])


def clear(db: Database) -> None:
    """Empty the projection (a rebuild, as the owner)."""
    with db.connection() as conn:
        conn.execute("DELETE FROM game_ratings")
        conn.execute("DELETE FROM rating_history")
        conn.execute("DELETE FROM ratings")


def snapshot(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the projection, in a fixed order (what ``rebuild --check`` compares)."""
    with db.connection() as conn:
        return {
            "ratings": [tuple(r) for r in conn.execute(
                "SELECT player_id, ruleset, mu, sigma, rating, games FROM ratings ORDER BY player_id, ruleset")],
            "rating_history": [tuple(r) for r in conn.execute(
                "SELECT player_id, ruleset, n, game_id, seat, rank, mu_before, sigma_before, mu_after, sigma_after"
                " FROM rating_history ORDER BY player_id, ruleset, n")],
            "game_ratings": [tuple(r) for r in conn.execute(
                "SELECT stream_id, ruleset, changes FROM game_ratings ORDER BY stream_id")],
        }
