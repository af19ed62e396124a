"""Pages of the game index: a player's own games and the public list, by keyset.

A page ends with the sort key of its last row; the next page starts after it, so a
game is listed exactly once however many games a player has, and however the games
change between pages (a game that moves moves to its new place).

* a player's games: the ones in which the player's seat may act first, then the nearest
  deadline, then the most recently updated (a sort of the player's own rows);
* the public list: the most recently updated first (an index scan of ``game_index_public``).
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.db import Database
from events.game_index import COLUMNS, IndexRow, row_of

_G = ", ".join("g." + c for c in COLUMNS)
_FAR = "9999-12-31T00:00:00Z"  # the deadline of a game without one, for ordering only


@dataclass(frozen=True, slots=True)
class Filters:
    status: str | None = None
    ruleset: str | None = None
    may_act: bool | None = None
    seats_free: int | None = None  # at least this many free seats


@dataclass(frozen=True, slots=True)
class Listed:
    """A row of a page: the game, the caller's seat and role in it, and its sort key."""

    row: IndexRow
    seat: int | None
    role: str | None
    key: tuple[Any, ...]


_MAY_ACT = "(p.role = 'seated' AND p.seat = ANY(g.may_act))"


def _where(f: Filters, params: list[Any], player_joined: bool) -> list[str]:
    out = []
    if f.status:
        out.append("g.status = %s")
        params.append(f.status)
    if f.ruleset:
        out.append("g.ruleset = %s")
        params.append(f.ruleset)
    if f.seats_free is not None:
        out.append("g.free_seats >= %s")
        params.append(f.seats_free)
    if f.may_act is not None:
        cond = f"coalesce({_MAY_ACT}, false)" if player_joined else "false"
        out.append(cond if f.may_act else f"NOT {cond}")
    return out


def of_player(db: Database, player: uuid.UUID, f: Filters, after: tuple[Any, ...] | None, limit: int) -> list[Listed]:
    """A page of every game the player sits in or is invited to (see the module docstring)."""
    params: list[Any] = [_FAR, player]
    where = ["p.player_id = %s", *_where(f, params, True)]
    inner = (f"SELECT {_G}, p.seat, p.role, CASE WHEN {_MAY_ACT} THEN 0 ELSE 1 END AS k1,"
             " coalesce(g.deadline_due, %s::timestamptz) AS k2, -extract(epoch FROM g.updated_at) AS k3,"
             " g.stream_id AS k4 FROM game_players p JOIN game_index g ON g.stream_id = p.stream_id"
             f" WHERE {' AND '.join(where)}")
    sql = f"SELECT * FROM ({inner}) q"
    if after is not None:
        sql += " WHERE (k1, k2, k3, k4) > (%s::int, %s::timestamptz, %s::numeric, %s::uuid)"
        params.extend(after)
    sql += " ORDER BY k1, k2, k3, k4 LIMIT %s"
    params.append(limit)
    n = len(COLUMNS)
    with db.connection() as conn:
        rows = conn.execute(sql, params).fetchall()
    return [Listed(row_of(r[:n]), r[n], r[n + 1], (r[n + 2], _iso(r[n + 3]), str(r[n + 4]), str(r[n + 5])))
            for r in rows]


def public(db: Database, player: uuid.UUID | None, f: Filters, after: tuple[Any, ...] | None,
           limit: int) -> list[Listed]:
    """A page of the public games, with the caller's seat where they have one."""
    # Without a caller there is no seat to join: a join on ``player_id = NULL`` would fold to
    # false and drop the join's stream_id equality, which Citus cannot plan (it refused).
    params: list[Any] = [] if player is None else [player]
    where = ["g.visibility = 'public'", *_where(f, params, player is not None)]
    if after is not None:
        where.append("(g.updated_at, g.stream_id) < (%s::timestamptz, %s::uuid)")
        params.extend(after)
    source, seat = "game_index g", "NULL::int, NULL::text"
    if player is not None:
        source += " LEFT JOIN game_players p ON p.stream_id = g.stream_id AND p.player_id = %s"
        seat = "p.seat, p.role"
    sql = (f"SELECT {_G}, {seat} FROM {source}"
           f" WHERE {' AND '.join(where)} ORDER BY g.updated_at DESC, g.stream_id DESC LIMIT %s")
    params.append(limit)
    n = len(COLUMNS)
    with db.connection() as conn:
        rows = conn.execute(sql, params).fetchall()
    return [Listed(row_of(r[:n]), r[n], r[n + 1], (_iso(r[6]), str(r[0]))) for r in rows]


def _iso(moment: datetime) -> str:
    return moment.isoformat()
