"""What may be sent to a player whose page is closed, and when, pure (standard library only).

The sender claims an outbox row and asks :func:`decide`: send it now, let it wait (the quiet
hours' end, or while the game is open in a page), skip it (the player turned it off, or the
reminder's deadline has passed) or fold it into the next digest (:func:`next_digest`). During quiet hours
nothing goes but a reminder whose deadline falls inside them; what waits goes when they end.
E-mails the player asked for (a verification, a sign-in code) always go at once.

A turn schedules its reminders (:func:`reminders`: one per lead, due at the deadline less the
lead, each written once by its key). A message is a key and its arguments (:class:`Message`),
never rendered text: a later step renders it in the player's language. It names games, players
and deadlines, never a card.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone
from typing import Any, Literal

from service.model.reach import Settings, quiet_end, wall_moments

ASKED = ("verify_email", "signin_code")  # e-mails the player asked for: sent at once, always
ABOUT_A_GAME = ("your_turn", "game_over", "invited", "reminder", "chat", "tournament_round")
#: the moments of the day, on the player's clock, at which a digest goes (at most two a day)
DIGEST_TIMES = (time(8, 0), time(18, 0))
Action = Literal["send", "wait", "skip", "digest"]
#: how long an e-mail is held while its game is open in a page before it is looked at again
PAGE_HOLD = timedelta(seconds=60)


@dataclass(frozen=True, slots=True)
class Decision:
    """``send`` now; ``wait`` until ``at``; ``skip`` (``reason`` says why); ``digest``: in the
    digest that goes at ``at``."""

    action: Action
    at: datetime | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Message:
    """A message as a key and its arguments, rendered later in the player's language."""

    key: str
    args: Mapping[str, Any]

    def json(self) -> dict[str, Any]:
        return {"key": self.key, "args": dict(self.args)}


@dataclass(frozen=True, slots=True)
class Game:
    """What a message says of a game: its id, name and ruleset (the link is its page's path)."""

    id: str
    name: str
    ruleset: str

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "ruleset": self.ruleset, "path": f"/#/game/{self.id}"}


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting for the player: their seat, whom it waits for, and the seat's deadline."""

    game: Game
    seat: int
    awaiting: tuple[str, ...] = ()
    deadline: datetime | None = None


@dataclass(frozen=True, slots=True)
class Reminder:
    lead: int  # seconds before the deadline
    at: datetime
    key: str  # written once per game, seat, deadline and lead


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def moment(text: str | None) -> datetime | None:
    """A moment as the service writes it (ISO 8601, ``Z`` or an offset), or None."""
    return None if text is None else datetime.fromisoformat(text).astimezone(timezone.utc)


def seat_deadline(deadline: Mapping[str, Any] | None, seat: int) -> datetime | None:
    """The seat's own deadline in a game's public deadline (``per_seat``), if it has one."""
    for entry in (deadline or {}).get("per_seat", []):
        if entry.get("seat") == seat:
            return moment(entry.get("at"))
    return None


def _wanted(settings: Settings, channel: str, kind: str, lead: int | None) -> bool:
    chosen = settings.channel(channel)
    if kind == "your_turn":
        return chosen.turn not in ("off", False)
    if kind == "digest":
        return channel == "email" and settings.email.turn != "off"
    if kind == "reminder":
        return lead in chosen.reminders
    if kind in ("game_over", "invited", "chat"):
        return bool(getattr(chosen, kind))
    if kind == "tournament_round":  # follows the invitations' setting (a seat kept for the player)
        return bool(chosen.invited)
    return False


def decide(settings: Settings, channel: str, kind: str, now: datetime, *, deadline: datetime | None = None,
           lead: int | None = None, page_open: bool = False) -> Decision:
    """What to do now with a message of ``kind`` on ``channel`` ('email' or 'push').

    ``deadline``: the deadline a reminder is about (the seat's current one); ``lead``: the
    reminder's lead; ``page_open``: the player has this game open in a page now: nothing is
    e-mailed about it then; a game's end is skipped (they see it), a turn, an invitation or a
    reminder is held (``wait`` a minute, then decided again: it goes if the page has closed
    and it still stands, and is skipped if the player moved meanwhile)."""
    if channel == "email" and kind in ASKED:
        return Decision("send")
    if not _wanted(settings, channel, kind, lead):
        return Decision("skip", reason="turned off")
    if kind == "reminder" and (deadline is None or deadline <= now):
        return Decision("skip", reason="the deadline has passed" if deadline else "no longer awaited")
    if channel == "email" and page_open and kind in ABOUT_A_GAME:
        # the player sees it on the page: a result needs no e-mail; what asks something of
        # them is held, and goes if they close the page without doing it
        if kind in ("game_over", "chat"):
            return Decision("skip", reason="the game is open in a page")
        return Decision("wait", at=now + PAGE_HOLD, reason="the game is open in a page")
    if channel == "email" and kind == "your_turn" and settings.email.turn == "digest":
        return Decision("digest", at=next_digest(settings, now))
    end = quiet_end(settings, now)
    if end is None or (kind == "reminder" and deadline is not None and deadline <= end):
        return Decision("send")
    return Decision("wait", at=end)


def next_digest(settings: Settings, now: datetime) -> datetime:
    """When the next digest goes: the next of :data:`DIGEST_TIMES` on the player's clock after
    ``now``, or the end of the quiet hours it falls in."""
    at = now.astimezone(timezone.utc)
    today = at.astimezone(settings.zone).date()
    due = min(t for k in range(0, 3) for wall in DIGEST_TIMES
              for t in wall_moments(settings, today + timedelta(days=k), wall) if t > at)
    return quiet_end(settings, due) or due


def digest_key(at: datetime) -> str:
    """The key of the digest that goes at ``at``: several turns, one digest."""
    return f"digest:{_iso(at)}"


def reminders(leads: Sequence[int], game_id: str, seat: int, deadline: datetime, now: datetime) -> tuple[Reminder, ...]:
    """The reminders of a wait that ends at ``deadline``: one per lead whose moment is still to
    come, the earliest first. A reminder whose moment has passed when the wait begins is not
    sent: the turn's own message says as much."""
    out = []
    for lead in leads:
        at = deadline - timedelta(seconds=lead)
        if at > now:
            out.append(Reminder(lead, at, f"reminder:{game_id}:{seat}:{_iso(deadline)}:{lead}"))
    return tuple(sorted(out, key=lambda r: r.at))


def still_due(scheduled: datetime, current: datetime | None) -> bool:
    """Whether a reminder scheduled for a deadline still stands: the seat is still awaited
    (``current`` is its deadline now) and that deadline has not moved. When it has moved, the
    caller schedules the new deadline's reminders instead."""
    return current is not None and current == scheduled


# --- messages ------------------------------------------------------------------------------

def your_turn(game: Game, awaiting: Sequence[str], deadline: datetime | None) -> Message:
    return Message("your_turn", {"game": game.json(), "awaiting": list(awaiting), "deadline": _iso(deadline)})


def reminder(game: Game, awaiting: Sequence[str], deadline: datetime, lead: int) -> Message:
    return Message("reminder", {"game": game.json(), "awaiting": list(awaiting), "deadline": _iso(deadline),
                                "left_seconds": lead})


def game_over(game: Game, status: str, winners: Sequence[str] = ()) -> Message:
    return Message("game_over", {"game": game.json(), "status": status, "winners": list(winners)})


def invited(game: Game, by: str | None) -> Message:
    return Message("invited", {"game": game.json(), "by": by})


def tournament_round(game: Game, n: int) -> Message:
    """A tournament's table of round ``n`` is ready for the player (docs/tournaments.md)."""
    return Message("tournament_round", {"game": game.json(), "round": n})


def chat(game: Game, handle: str, text: str) -> Message:
    """A game chat's message: who wrote it and their words (nothing the server adds of the game)."""
    return Message("chat", {"game": game.json(), "by": handle, "text": text})


def digest(waiting: Sequence[Waiting]) -> Message | None:
    """Every game waiting for the player, the most urgent first (the nearest deadline; games
    without one last, by name); None when nothing waits."""
    if not waiting:
        return None
    far = datetime.max.replace(tzinfo=timezone.utc)
    ordered = sorted(waiting, key=lambda w: (w.deadline or far, w.game.name, w.game.id))
    return Message("digest", {"games": [{"game": w.game.json(), "seat": w.seat, "awaiting": list(w.awaiting),
                                         "deadline": _iso(w.deadline)} for w in ordered]})


def verify_email(address: str, expires_at: datetime) -> Message:
    """The verification e-mail (its link, holding the token, is made by the sender)."""
    return Message("verify_email", {"address": address, "expires_at": _iso(expires_at)})


def signin_code(expires_at: datetime) -> Message:
    """The sign-in code's e-mail (the code itself is the row's secret, added by the sender)."""
    return Message("signin_code", {"expires_at": _iso(expires_at)})
