"""What each player should hear of an append: the notifications it causes.

Computed from the game before and after the append (public facts, and each seat's own legal
actions, which depend only on what that seat may know), and written by the append itself in
the same transaction (the repository hands them to ``events.notifications.effect``). A
notification names a game, a version, seats and a kind, never a card.

Kinds: ``game_started`` (every seat taken, the cards dealt), ``your_turn`` (the game now
waits for this seat), ``can_react`` (a seat not waited for has a claim it may send on what
just happened: a snap, a match, a pass), ``round_over``, ``game_over``, ``timed_out`` (the
server played this seat's automatic action), ``invited`` (a seat is kept for the player),
from the sweeper ``deadline_soon``, and from the game chat ``chat`` (another seated player's
message: its data the sender's handle and the words, ``service.model.chat.notice_data``), and
``tournament_round`` (a table of a tournament's round is ready for this seat: its data the
tournament's id and the round, docs/tournaments.md).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from domain import choices, rules
from service.model.game import Game, Timeouts, iso
from service.model.views import deadline_out

ENDED = frozenset({"finished", "aborted", "cancelled"})
KINDS = ("your_turn", "can_react", "deadline_soon", "timed_out", "round_over", "game_over", "game_started",
         "invited", "webhook_disabled", "chat", "tournament_round")


@dataclass(frozen=True, slots=True)
class Notice:
    """A notification to write: for whom, what kind, about which game and version (the
    notifications table's row; ``dedup_key`` makes a repeated one a no-op)."""

    player_id: str
    kind: str
    game_id: str | None = None
    version: int | None = None
    seats: tuple[int, ...] = ()
    data: dict[str, Any] | None = None
    dedup_key: str | None = None


class Stored(Protocol):
    """A notification as read back, numbered in its player's sequence."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def game_id(self) -> Any: ...
    @property
    def version(self) -> int | None: ...
    @property
    def seats(self) -> list[int]: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def created_at(self) -> datetime: ...


def notification_out(n: Stored) -> dict[str, Any]:
    """A notification as the account stream, the long-poll and a webhook's body show it."""
    return {"seq": n.seq, "kind": n.kind, "game_id": None if n.game_id is None else str(n.game_id),
            "version": n.version, "seats": n.seats, "at": iso(n.created_at), "data": n.data}


def _players(game: Game) -> list[tuple[int, str]]:
    return [(i, s.player_id) for i, s in enumerate(game.seats) if s is not None]


def _awaited(game: Game) -> set[int]:
    if game.rules is None or game.status != "active":
        return set()
    return set(rules.get(game.ruleset).awaiting(game.rules))


def _round(game: Game) -> Any:
    return None if game.rules is None else rules.get(game.ruleset).summary(game.rules).get("round")


def _open_window(game: Game) -> int | None:
    """The id of the reaction window open now and not yet won (the rulesets with windows
    keep it as the shared ``domain.table.Window`` in their state), else None."""
    window = getattr(game.rules, "window", None)
    return None if window is None or window.won_by is not None else int(window.id)


def of_append(before: Game | None, after: Game, version: int, timeouts: Timeouts,
              timed_out: Sequence[int] = ()) -> list[Notice]:
    """The notifications of the append that took ``before`` (None: a new game) to ``after``
    at ``version``."""
    if before is None:  # nothing was there before: every seat free, nobody invited
        before = replace(after, seats=(None,) * len(after.seats), reserved=(), rules=None)
    gid = after.id
    seated = _players(after)
    deadline = deadline_out(after)
    base = {"ruleset": after.ruleset, "name": after.name}
    out: list[Notice] = []

    def tell(kind: str, seat: int, player: str, **data: Any) -> None:
        out.append(Notice(player, kind, gid, version, (seat,), {**base, **data}))

    if before.rules is None and after.rules is not None:
        for seat, player in seated:
            tell("game_started", seat, player)
            if after.tournament is not None:  # a tournament's table, dealt when its round forms
                tell("tournament_round", seat, player, tournament_id=after.tournament[0], round=after.tournament[1])
    awaited0, awaited1 = _awaited(before), _awaited(after)
    for seat in timed_out:
        player = after.seats[seat].player_id if after.seats[seat] else None
        if player:
            tell("timed_out", seat, player)
    for seat, kept in enumerate(after.reserved):  # an invitation (SeatReserved): the invitee hears of it
        if kept is not None and before.reservation(seat) != kept:
            tell("invited", seat, kept.player_id)
    # over however it ended: the rules, the last player left, a vote to abort, its creator
    finished = after.status in ENDED and before.status not in ENDED
    round0 = _round(before)
    if before.rules is not None and (finished or _round(after) != round0):
        for seat, player in seated:
            tell("round_over", seat, player, round=round0)
    if finished:
        for seat, player in seated:
            tell("game_over", seat, player, status=after.status)
        return out
    window = _open_window(after)
    fresh = window is not None and window != _open_window(before)
    rs = rules.get(after.ruleset)
    for seat, player in seated:
        if seat in awaited1 and seat not in awaited0:
            tell("your_turn", seat, player, deadline=deadline)
        elif fresh and seat not in awaited1:
            # only when a window has just opened: a seat's legal actions are its own facts
            claims = sum(choices.count(a) for a in rs.moves(after.rules, seat) if a.get("window_id") == window)
            if claims:
                tell("can_react", seat, player, window_id=window, claims=claims)
    return out


def recipients(items: Sequence[Notice]) -> set[str]:
    return {i.player_id for i in items}


def wake_key(player_id: str) -> str:
    """The wake-up hint of a player's notification waiters (beside each game's own)."""
    return f"player-{player_id}"
