"""What the e-mail and push senders read to decide and to render: the recipients (their
settings in force, their language), the games' public facts (the game index: name, ruleset,
who is awaited, each seat's deadline, winners), the games waiting for a player, and which
pages are open now.

Only public facts of a game go into a message: the index row is what lists show to anyone
who may see the game, never a seat's view or an event's secret payload, so no card can be
named (docs/reaching-players.md).
"""
from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from events import game_index, reach
from events.game_index import IndexRow
from service.adapters import account_stream
from service.model import reach_messages as rm
from service.model.problems import Problem
from service.model.reach import Settings, effective
from service.usecases.dependencies import Dependencies

#: a page counts as open while its process touched its row this recently (it does every few seconds)
PRESENCE_FRESH = timedelta(seconds=30)
DIGEST_GAMES = 50  # the games a digest lists at most


@dataclass(frozen=True, slots=True)
class Recipient:
    """A player as the senders see them: the settings in force and their language."""

    player_id: uuid.UUID
    settings: Settings
    locale: str | None


def recipients(deps: Dependencies, player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Recipient]:
    """The recipients of a batch: stored settings in one query, each player's language from
    their account (their own stream)."""
    ids = sorted(set(player_ids))
    stored = reach.settings_for(deps.db, ids)
    out = {}
    for pid in ids:
        try:
            acct = account_stream.load(deps.store, str(pid))[0]
        except Problem:
            acct = None  # no account to read: English
        mine = stored.get(pid)
        out[pid] = Recipient(pid, effective(mine.settings if mine else None), getattr(acct, "locale", None))
    return out


def games(deps: Dependencies, ids: Iterable[uuid.UUID | None]) -> dict[uuid.UUID, IndexRow]:
    wanted = sorted({i for i in ids if i is not None})
    return game_index.rows(deps.db, wanted) if wanted else {}


def game_of(row: IndexRow) -> rm.Game:
    return rm.Game(str(row.id), row.name, row.ruleset)


def _name(seat: dict[str, Any]) -> str:
    return str(seat.get("name") or f"#{seat.get('seat')}")


def awaited_names(row: IndexRow) -> list[str]:
    """The names of the players the game waits for, in seat order."""
    return [_name(s) for s in row.seats if s.get("seat") in row.awaiting and s.get("player_id")]


def seat_of(row: IndexRow, player_id: uuid.UUID) -> int | None:
    return next((int(s["seat"]) for s in row.seats if s.get("player_id") == str(player_id)), None)


def current_deadline(row: IndexRow | None, seat: int | None) -> tuple[bool, datetime | None]:
    """(the seat is awaited now, its own deadline if it has one)."""
    if row is None or seat is None or row.status != "active" or seat not in row.awaiting:
        return False, None
    return True, rm.seat_deadline(row.deadline, seat)


@dataclass(frozen=True, slots=True)
class Wait:
    """Where the seat an outbox row is about stands now: which seat, whether the game waits
    for it, and its own deadline."""

    seat: int | None
    awaited: bool
    deadline: datetime | None

    def reminder_stands(self, args: dict[str, Any]) -> bool:
        """Whether a reminder row (its ``args``) is still about the seat's current deadline."""
        scheduled = rm.moment(args.get("deadline"))
        return scheduled is not None and rm.still_due(scheduled, self.deadline if self.awaited else None)


def wait_of(kind: str, notification: Any, args: dict[str, Any], row: IndexRow, player_id: uuid.UUID) -> Wait:
    """The wait a row is about: the notification's seat, else the player's (a reminder's own)."""
    seat = notification.seats[0] if notification is not None and notification.seats else seat_of(row, player_id)
    if seat is None and kind == "reminder":
        seat = int(args.get("seat", -1))
    awaited, deadline = current_deadline(row, seat)
    return Wait(seat, awaited, deadline)


def still_stands(kind: str, row: IndexRow, player_id: uuid.UUID) -> bool:
    """Whether news of this kind is still news: an invitation while the seat is still kept
    for the player (not taken, not withdrawn); a game's end or a turn always (a turn is
    checked against the seat's wait by the caller)."""
    if kind != "invited":
        return True
    return row.status == "open" and any((s.get("reserved_for") or {}).get("player_id") == str(player_id)
                                        for s in row.seats)


def winner_names(row: IndexRow) -> list[str]:
    by_seat = {s.get("seat"): _name(s) for s in row.seats}
    return [by_seat[w] for w in row.winners or () if w in by_seat]


def creator_name(row: IndexRow) -> str | None:
    return next((_name(s) for s in row.seats if row.creator and s.get("player_id") == str(row.creator)), None)


def waiting_for(deps: Dependencies, player_id: uuid.UUID, leave_out: set[uuid.UUID | None]) -> list[rm.Waiting]:
    """Every active game waiting for the player's seat (but those in ``leave_out``: open in a
    page), read from the game index."""
    out = []
    for row in game_index.awaiting_player(deps.db, player_id, DIGEST_GAMES):
        seat = seat_of(row, player_id)
        if row.id in leave_out or seat is None:
            continue
        out.append(rm.Waiting(game_of(row), seat, tuple(awaited_names(row)), rm.seat_deadline(row.deadline, seat)))
    return out


def open_pages(deps: Dependencies, player_ids: Sequence[uuid.UUID], now: datetime
               ) -> dict[uuid.UUID, set[uuid.UUID | None]]:
    """player -> the games they have open in a page now (None: some page of the site)."""
    return reach.open_pages(deps.db, sorted(set(player_ids)), now - PRESENCE_FRESH)


def message(kind: str, row: IndexRow, player_id: uuid.UUID, deadline: datetime | None = None,
            lead: int | None = None, notification: Any = None) -> rm.Message:
    """The message of a kind about a game, from its index row (a chat's: from its
    notification, which holds only the writer's handle and words)."""
    game = game_of(row)
    if kind == "your_turn":
        return rm.your_turn(game, awaited_names(row), deadline)
    if kind == "reminder":
        assert deadline is not None and lead is not None
        return rm.reminder(game, awaited_names(row), deadline, lead)
    if kind == "game_over":
        return rm.game_over(game, row.status, winner_names(row))
    if kind == "invited":
        return rm.invited(game, creator_name(row))
    if kind == "tournament_round":
        told = notification.data if notification is not None else {}
        return rm.tournament_round(game, int(told.get("round") or 0))
    if kind == "chat":
        said = notification.data if notification is not None else {}
        return rm.chat(game, str(said.get("handle") or ""), str(said.get("text") or ""))
    raise ValueError(f"no message of kind {kind!r} about a game")


def reminder_args(seat: int, deadline: datetime, lead: int) -> dict[str, Any]:
    """What a reminder row keeps: which wait it is about, and its lead."""
    return {"seat": seat, "deadline": deadline.isoformat(), "lead": lead}


@dataclass(frozen=True)
class Policy:
    """How the senders pace themselves: back-off after a failure that may pass (seconds
    after each; when they run out the message is given up as failed), the lease of a claim
    (longer than any one batch's sending), the batch, and how often an idle sender looks for
    rows that came due without a hint (a reminder's time, a digest's, the end of quiet hours)."""

    retry_after: tuple[float, ...] = (60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600)
    lease_seconds: int = 120
    batch: int = 64
    poll_seconds: float = 2.0
    senders: int = 8  # pushes sent at once (each its own HTTP request)
    # settled rows are forgotten this long after (an e-mail's unsubscribe link works as long),
    # looked for this often by the process that sends e-mail
    keep_days: float = 60.0
    purge_every_seconds: float = 3600.0

    def next_try(self, failures: int, now: datetime, at_least: float | None = None) -> datetime | None:
        """When a message that failed ``failures`` times before this one goes again (None: no more)."""
        if failures >= len(self.retry_after):
            return None
        return now + timedelta(seconds=max(self.retry_after[failures], at_least or 0.0))
