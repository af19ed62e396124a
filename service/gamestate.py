"""A game as the service folds it: service events around one ruleset's state.

The stream of a game holds the service's own events (``GameOpened``, ``SeatTaken``,
``SecretRevealed``) and, once every seat is filled, the ruleset's events, stored as
``type`` = class name and ``data`` = ``domain.codec.to_json(event)`` (the full truth).
Nothing here does I/O.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any

import domain
from domain import codec, rules
from domain.messages import FinalWindowExpired, TurnTimedOut
from domain.ruleset import Ruleset

SERVICE_EVENTS = frozenset({"GameOpened", "SeatTaken", "SecretRevealed"})


@dataclass(frozen=True, slots=True)
class SeatInfo:
    player_id: str
    name: str
    entropy: str


@dataclass(frozen=True, slots=True)
class Deadline:
    """What the service sends when nobody moves in time (RULES §2.11): the ruleset's system
    commands for the current wait, and since when that wait has run (an event's ``at``)."""

    commands: tuple[Any, ...]
    since: str

    @property
    def kind(self) -> str:
        return "final_window" if any(isinstance(c, FinalWindowExpired) for c in self.commands) else "turn"


@dataclass(frozen=True)
class Timeouts:
    """Service settings (RULES §7.6), never stored in a game: seconds a wait may last."""

    turn: float = 72 * 3600.0
    final_window: float = 24 * 3600.0

    def of(self, deadline: Deadline) -> float:
        return self.final_window if deadline.kind == "final_window" else self.turn


@dataclass(frozen=True, slots=True)
class Game:
    """Everything the service knows of a game at one version (pickled as the snapshot)."""

    id: str
    ruleset: str
    name: str
    options: dict[str, Any]
    creator: str
    secret_commitment: str
    seats: tuple[SeatInfo | None, ...]
    rules: Any = None
    secret: str | None = None
    updated_at: str = ""
    deadline: Deadline | None = None

    @property
    def status(self) -> str:
        if self.rules is None:
            return "open"
        return "finished" if rules.get(self.ruleset).is_terminal(self.rules) else "active"

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s is not None and s.player_id == player_id:
                return i
        return None

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)


@cache
def domain_digest() -> str:
    """sha256 over the source of every domain module and of this one, whose Game is what a
    snapshot pickles (computed once per process)."""
    root = Path(domain.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    h.update(b"service/gamestate.py\0")
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


def fingerprint(ruleset_name: str) -> str:
    return hashlib.sha256(f"{domain_digest()}/{ruleset_name}".encode()).hexdigest()


def evolve(game: Game | None, type_: str, data: Mapping[str, Any], metadata: Mapping[str, Any],
           stream_id: str) -> Game:
    """The next game after one stored event."""
    at = str(metadata.get("at") or "")
    if type_ == "GameOpened":
        return Game(stream_id, data["ruleset"], data["name"], dict(data["options"]), data["creator"],
                    data["secret_commitment"], (None,) * int(data["seats"]), updated_at=at)
    assert game is not None, "a game stream starts with GameOpened"
    if type_ == "SeatTaken":
        seats = list(game.seats)
        seats[data["seat"]] = SeatInfo(data["player_id"], data["name"], data["entropy"])
        return replace(game, seats=tuple(seats), updated_at=at)
    if type_ == "SecretRevealed":
        return replace(game, secret=data["secret"], updated_at=at)
    rs = rules.get(game.ruleset)
    event = codec.build(rs.event_types[type_], data)
    return advance(game, rs, rs.evolve(game.rules, event), at)


def advance(game: Game, rs: Ruleset, state: Any, at: str) -> Game:
    """The game with its ruleset state moved on at ``at``, and its deadline's clock: it keeps
    running while the wait goes on (the same commands, or fewer: seats of an initial peek
    choosing one by one) and restarts when a new wait begins."""
    commands = () if rs.is_terminal(state) else tuple(rs.deadlines(state))
    old = game.deadline
    if not commands:
        deadline = None
    elif old is not None and set(commands) <= set(old.commands):
        deadline = old if commands == old.commands else Deadline(commands, old.since)
    else:
        deadline = Deadline(commands, at)
    return replace(game, rules=state, updated_at=at, deadline=deadline)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def deadline_at(deadline: Deadline, timeouts: Timeouts) -> datetime:
    since = datetime.fromisoformat(deadline.since.replace("Z", "+00:00"))
    return since + timedelta(seconds=timeouts.of(deadline))


def deadline_out(game: Game, timeouts: Timeouts) -> dict[str, Any] | None:
    """The public deadline: when it passes, what kind of wait it ends and whose turns time out."""
    d = game.deadline
    if d is None:
        return None
    seats = sorted({c.seat for c in d.commands if isinstance(c, TurnTimedOut)})
    return {"kind": d.kind, "at": _iso(deadline_at(d, timeouts)), "since": d.since, "seats": seats}


def fold_records(game: Game | None, records: Iterable[Any]) -> Game | None:
    for rec in records:
        game = evolve(game, rec.type, rec.data, rec.metadata, str(rec.stream_id))
    return game


def public_event(ruleset: Ruleset, type_: str, data: Mapping[str, Any], seat: int | None,
                 typed: Any = None) -> dict[str, Any] | None:
    """The fields of a stored event this seat may see, or ``None`` if it sees nothing of it.
    ``typed`` is the ruleset's event object when the caller still holds it (spares a rebuild)."""
    if type_ in SERVICE_EVENTS:
        return dict(data)  # service events are public (the secret only once revealed)
    if typed is None:
        typed = codec.build(ruleset.event_types[type_], data)
    shown = ruleset.redact(typed, seat)
    if shown is None:
        return None
    return {k: v for k, v in shown.items() if k != "type"}


def present_record(ruleset: Ruleset, rec: Any, seat: int | None) -> dict[str, Any] | None:
    data = public_event(ruleset, rec.type, rec.data, seat, getattr(rec, "typed", None))
    if data is None:
        return None
    meta = rec.metadata or {}
    return {"version": rec.version, "type": rec.type, "actor": meta.get("actor"), "at": meta.get("at"),
            "data": data}


def seats_public(game: Game) -> list[dict[str, Any]]:
    return [{"seat": i, "player_id": s.player_id if s else None, "name": s.name if s else None,
             "entropy": s.entropy if s else None} for i, s in enumerate(game.seats)]


def summary(game: Game, version: int, head: bytes, timeouts: Timeouts = Timeouts()) -> dict[str, Any]:
    """The public summary of a game (``GET /v1/games/{id}``)."""
    rs = rules.get(game.ruleset)
    status = game.status
    facts: dict[str, Any] = {"round": None, "phase": None, "turn": None, "dealer": None, "scores": None}
    awaiting: list[int] = []
    if game.rules is not None:
        facts.update(rs.summary(game.rules))
        awaiting = [] if status == "finished" else list(rs.awaiting(game.rules))
    return {
        "id": game.id, "ruleset": game.ruleset, "name": game.name, "options": game.options,
        "status": status, "seats": seats_public(game), "creator": game.creator,
        "round": facts.get("round"), "phase": facts.get("phase"), "turn": facts.get("turn"),
        "dealer": facts.get("dealer"), "scores": list(facts["scores"]) if facts.get("scores") is not None else None,
        "awaiting": awaiting, "secret_commitment": game.secret_commitment, "secret": game.secret,
        "version": version, "chain_head": head.hex(), "updated_at": game.updated_at,
        "deadline": deadline_out(game, timeouts),
    }


def view(game: Game, version: int, head: bytes, seat: int | None, timeouts: Timeouts = Timeouts()
         ) -> dict[str, Any]:
    """A seat's view (or the spectator's, ``seat=None``) with its legal actions."""
    rs = rules.get(game.ruleset)
    status = game.status
    table = None
    legal: list[Any] = []
    awaiting: list[int] = []
    if game.rules is not None:
        table = rs.view(game.rules, seat)
        if status == "active":
            awaiting = list(rs.awaiting(game.rules))
            if seat is not None:
                legal = rs.legal_actions(game.rules, seat)
    return {"game_id": game.id, "ruleset": game.ruleset, "status": status, "seat": seat,
            "version": version, "chain_head": head.hex(), "awaiting": awaiting,
            "legal_actions": legal, "seats": seats_public(game), "table": table,
            "deadline": deadline_out(game, timeouts)}
