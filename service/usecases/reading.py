"""Reading a game: its summary, a seat's view, its events as one seat (or a spectator) may see
them page by page, and a seat's standing orders. Each loads the game through the repository
(this worker's cached copy, checked by version) and presents it for its reader."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from domain import rules
from service.model.problems import Problem
from service.model.views import present_record, summary, view
from service.usecases import ratings
from service.usecases.dependencies import Dependencies

#: whether the caller already holds the game at this version (its If-None-Match)
Held = Callable[[int], bool]


def game_summary(deps: Dependencies, gid: uuid.UUID, player: str | None,
                 held: Held) -> tuple[int, dict[str, Any] | None]:
    """The game's version and its public summary with the caller's seat (``None`` when the
    caller holds that version already)."""
    cur = deps.games.load(gid)
    if held(cur.version):
        return cur.version, None
    seat = cur.game.seat_of(player) if player else None
    return cur.version, summary(cur.game, cur.version, cur.head, deps.timeouts) | {
        "your_seat": seat, "rating_changes": ratings.of_game(deps, cur.game)}


def seat_view(deps: Dependencies, gid: uuid.UUID, player: str | None,
              held: Held) -> tuple[int, dict[str, Any] | None]:
    """The game's version and the caller's view of it (a spectator's without a seat; ``None``
    when the caller holds that version already)."""
    cur = deps.games.load(gid)
    if held(cur.version):
        return cur.version, None
    seat = cur.game.seat_of(player) if player else None
    return cur.version, view(cur.game, cur.version, cur.head, seat, deps.timeouts)


def reader(deps: Dependencies, gid: uuid.UUID, player: str | None) -> tuple[str, int | None]:
    """For reading a game's events: its ruleset, and the caller's seat (None: a spectator or
    an anonymous caller). Both are immutable once known: no query when this worker knows them."""
    name = deps.games.ruleset_of(gid)
    seat = deps.games.seat_of(gid, player) if player is not None else None
    return name, seat


def events_page(deps: Dependencies, gid: uuid.UUID, seat: int | None, after: int, limit: int,
                ruleset_name: str) -> tuple[dict[str, Any], bool]:
    """Events after ``after`` as ``seat`` may see them, and whether any event was read."""
    got = deps.store.page(gid, after, limit)
    if got is None:
        raise Problem("not-found", f"no game {gid}")
    version, head, records = got
    if not records:
        return {"events": [], "next_after": after, "version": version,
                "chain_head": head.hex(), "more": False}, False
    rs = rules.get(ruleset_name)
    shown = [p for p in (present_record(rs, r, seat) for r in records) if p is not None]
    last = records[-1]
    return {"events": shown, "next_after": last.version, "version": version,
            "chain_head": last.hash.hex(), "more": last.version < version}, True


def with_orders(deps: Dependencies, gid: uuid.UUID) -> None:
    """404 unless the game's ruleset has standing orders (only the games with windows do)."""
    name = deps.games.ruleset_of(gid)
    if "PlaceOrder" not in rules.get(name).command_types:
        raise Problem("not-found", f"{name} has no standing orders (it has no reaction windows)")


def live_orders(deps: Dependencies, gid: uuid.UUID, player: str) -> tuple[list[dict[str, Any]], int, bytes]:
    """The caller's live orders, from its view; 403 for a caller with no seat."""
    cur = deps.games.load(gid)
    seat = cur.game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game, so no orders")
    table = view(cur.game, cur.version, cur.head, seat, deps.timeouts)["table"]
    return ((table or {}).get("extension") or {}).get("orders", []), cur.version, cur.head
