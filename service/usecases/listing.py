"""Lists of games: a player's games (``/v1/me/games``) and the public list (``/v1/games``).

Both page by an opaque cursor (``next_cursor``) over the game index (events.game_lists):
every game comes exactly once, whatever their number. The inbox puts first the games in
which the caller's seat may act now (a claim included), then the nearest deadline. Each
item says ``your_turn`` (the game awaits your seat) and ``may_act`` (your seat has any
legal action now), read from the index, which the append computed with the rules'
``legal_actions``: public facts and the seat's own knowledge only.
"""
from __future__ import annotations

import base64
import json
import uuid
from typing import Any

from events import game_lists
from events.game_lists import Filters, Listed
from service.model.game import iso
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies


def item(listed: Listed) -> dict[str, Any]:
    """One game of a list as the caller sees it (only the caller's own ``may_act``)."""
    r = listed.row
    seated = listed.role == "seated"
    seat = listed.seat if seated else None
    return {"id": str(r.id), "ruleset": r.ruleset, "name": r.name, "status": r.status, "visibility": r.visibility,
            "seats": r.seats, "awaiting": r.awaiting, "free_seats": r.free_seats, "updated_at": iso(r.updated_at),
            "version": r.version, "round": r.round, "scores": r.scores, "winners": r.winners, "deadline": r.deadline,
            "time_control": r.time_control, "creator": str(r.creator) if r.creator else None,
            "rematch_of": str(r.rematch_of) if r.rematch_of else None,
            "next_game": str(r.next_game) if r.next_game else None,
            "your_seat": seat, "invited_seat": listed.seat if listed.role == "invited" else None,
            "your_turn": seat is not None and seat in r.awaiting,
            "may_act": seat is not None and seat in r.may_act}


def _encode(kind: str, key: tuple[Any, ...]) -> str:
    raw = json.dumps([kind, *key], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(kind: str, cursor: str | None, size: int) -> tuple[Any, ...] | None:
    if not cursor:
        return None
    try:
        value = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(value, list) or len(value) != size + 1 or value[0] != kind:
            raise ValueError(kind)
        key = tuple(value[1:])
        if kind == "me":
            int(key[0]), float(key[2])
            uuid.UUID(key[3])
        else:
            uuid.UUID(key[1])
        return key
    except (ValueError, TypeError, IndexError, json.JSONDecodeError):
        raise Problem("validation", "the cursor is not one this list gave",
                      errors={"cursor": ["use a next_cursor of the same list"]}) from None


def _page(rows: list[Listed], limit: int, kind: str) -> dict[str, Any]:
    more = len(rows) > limit
    rows = rows[:limit]
    return {"games": [item(r) for r in rows], "next_cursor": _encode(kind, rows[-1].key) if more and rows else None}


def filters(q: dict[str, Any]) -> Filters:
    return Filters(q.get("status"), q.get("ruleset"), q.get("may_act"), q.get("seats_free"))


def mine(deps: Dependencies, player: str, q: dict[str, Any]) -> dict[str, Any]:
    """A page of every game the player sits in or is invited to, those they may act in first."""
    after = _decode("me", q.get("cursor"), 4)
    rows = game_lists.of_player(deps.db, uuid.UUID(player), filters(q), after, q["limit"] + 1)
    return _page(rows, q["limit"], "me")


def public(deps: Dependencies, player: str | None, q: dict[str, Any]) -> dict[str, Any]:
    """A page of the public games (never an unlisted one), the most recently updated first."""
    after = _decode("public", q.get("cursor"), 2)
    rows = game_lists.public(deps.db, uuid.UUID(player) if player else None, filters(q), after, q["limit"] + 1)
    return _page(rows, q["limit"], "public")
