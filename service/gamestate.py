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
from functools import cache
from pathlib import Path
from typing import Any

import domain
from domain import codec, rules
from domain.ruleset import Ruleset

SERVICE_EVENTS = frozenset({"GameOpened", "SeatTaken", "SecretRevealed"})


@dataclass(frozen=True, slots=True)
class SeatInfo:
    player_id: str
    name: str
    entropy: str


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
    """sha256 over the source of every domain module (computed once per process)."""
    root = Path(domain.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
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
    return replace(game, rules=rs.evolve(game.rules, event), updated_at=at)


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


def summary(game: Game, version: int, head: bytes) -> dict[str, Any]:
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
    }


def view(game: Game, version: int, head: bytes, seat: int | None) -> dict[str, Any]:
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
            "legal_actions": legal, "seats": seats_public(game), "table": table}
