"""Typed answers of the API (the schemas of ``openapi.yaml``) as dataclasses.

Each model keeps the JSON it was read from in ``raw``; ``from_json`` ignores members it does
not know, so a newer server does not break an older client.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any


def _opt(cls: Any, value: Any) -> Any:
    return None if value is None else cls.from_json(value)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    token: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        return cls(d["id"], d["name"], d["token"])


@dataclass(frozen=True)
class Seat:
    seat: int
    player_id: str | None
    name: str | None
    entropy: str | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(d["seat"], d.get("player_id"), d.get("name"), d.get("entropy"))


@dataclass(frozen=True)
class Deadline:
    kind: str  # "turn" (also the initial peek) or "final_window"
    at: str
    since: str
    seats: list[int]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Deadline:
        return cls(d["kind"], d["at"], d["since"], list(d["seats"]))


@dataclass(frozen=True)
class Game:
    """A game's public summary."""

    id: str
    ruleset: str
    name: str
    status: str  # open | active | finished
    seats: list[Seat]
    awaiting: list[int]
    version: int
    chain_head: str
    your_seat: int | None
    scores: list[int] | None
    round: int | None
    phase: str | None
    deadline: Deadline | None
    secret: str | None
    raw: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Game:
        return cls(d["id"], d["ruleset"], d["name"], d["status"], [Seat.from_json(s) for s in d["seats"]],
                   list(d["awaiting"]), d["version"], d["chain_head"], d.get("your_seat"), d.get("scores"),
                   d.get("round"), d.get("phase"), _opt(Deadline, d.get("deadline")), d.get("secret"), d)


@dataclass(frozen=True)
class GameListItem:
    id: str
    ruleset: str
    name: str
    status: str
    awaiting: list[int]
    updated_at: str
    version: int
    your_seat: int | None
    your_turn: bool

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameListItem:
        return cls(d["id"], d["ruleset"], d["name"], d["status"], list(d["awaiting"]), d["updated_at"],
                   d["version"], d.get("your_seat"), bool(d.get("your_turn")))


@dataclass(frozen=True)
class SlotCard:
    slot: str | None  # None in a hand (Least Score)
    card: str | None  # None unless the viewer knows it
    empty: bool

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SlotCard:
        return cls(d.get("slot"), d.get("card"), bool(d.get("empty")))


@dataclass(frozen=True)
class TableSeat:
    seat: int
    card_count: int
    cards: list[SlotCard]
    own_turns: int | None
    locked: bool

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableSeat:
        return cls(d["seat"], d["card_count"], [SlotCard.from_json(c) for c in d["cards"]], d.get("own_turns"),
                   bool(d.get("locked")))


@dataclass(frozen=True)
class Held:
    card: str | None
    source: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Held:
        return cls(d.get("card"), d["source"])


@dataclass(frozen=True)
class Window:
    id: int
    card: str
    won: bool
    won_by: int | None
    final: bool
    passed: list[int]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Window:
        return cls(d["id"], d["card"], d["won"], d.get("won_by"), d["final"], list(d["passed"]))


@dataclass(frozen=True)
class Call:
    seat: int
    kind: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Call:
        return cls(d["seat"], d["kind"])


@dataclass(frozen=True)
class Power:
    rank: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Power:
        return cls(d["rank"])


@dataclass(frozen=True)
class Table:
    """The common view core: the same names in every ruleset; the rest in ``extension``."""

    ruleset: str
    seat: int | None
    round: int
    phase: str
    step: str | None
    turn: int | None
    turn_no: int | None
    dealer: int | None
    scores: list[int]
    last_round_scores: list[int] | None
    winners: list[int] | None
    players: list[TableSeat]
    stock_count: int
    discard_count: int
    discard_top: str | None
    held: Held | None
    window: Window | None
    call: Call | None
    power: Power | None
    extension: dict[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        return cls(d["ruleset"], d.get("seat"), d["round"], d["phase"], d.get("step"), d.get("turn"),
                   d.get("turn_no"), d.get("dealer"), list(d["scores"]), d.get("last_round_scores"),
                   d.get("winners"), [TableSeat.from_json(p) for p in d["players"]], d["stock_count"],
                   d["discard_count"], d.get("discard_top"), _opt(Held, d.get("held")),
                   _opt(Window, d.get("window")), _opt(Call, d.get("call")), _opt(Power, d.get("power")),
                   dict(d.get("extension") or {}))

    def me(self) -> TableSeat | None:
        """The viewer's own seat."""
        return None if self.seat is None else self.players[self.seat]


@dataclass(frozen=True)
class View:
    """A seat's view (``GET /v1/games/{id}/view``): ``legal_actions`` may be sent as they are; an
    entry with ``choices`` stands for every command they allow (:mod:`facedown_client.choices`)."""

    game_id: str
    ruleset: str
    status: str
    seat: int | None
    version: int
    chain_head: str
    awaiting: list[int]
    legal_actions: list[dict[str, Any]]
    seats: list[Seat]
    deadline: Deadline | None
    raw: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> View:
        return cls(d["game_id"], d["ruleset"], d["status"], d.get("seat"), d["version"], d["chain_head"],
                   list(d["awaiting"]), list(d["legal_actions"]), [Seat.from_json(s) for s in d["seats"]],
                   _opt(Deadline, d.get("deadline")), d)

    @cached_property
    def table(self) -> Table | None:
        """The table, typed when first asked for: a bot that reads ``legal_actions`` (or the
        table's JSON in ``raw``) does not pay for a model of every card on every answer."""
        return _opt(Table, self.raw.get("table"))

    @property
    def my_turn(self) -> bool:
        """The game waits for this seat."""
        return self.seat is not None and self.seat in self.awaiting


@dataclass(frozen=True)
class Event:
    version: int
    type: str
    actor: int | None
    at: str | None
    data: dict[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(d["version"], d["type"], d.get("actor"), d.get("at"), dict(d.get("data") or {}))


@dataclass(frozen=True)
class CommandResult:
    version: int
    chain_head: str
    events: list[Event]
    view: View
    checkpoint: str | None = None  # the game's signed checkpoint at version (checked by the client)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CommandResult:
        return cls(d["version"], d["chain_head"], [Event.from_json(e) for e in d["events"]], View.from_json(d["view"]),
                   d.get("checkpoint"))


@dataclass(frozen=True)
class Notification:
    """One entry of the account's inbox (``/v1/me/notifications``, ``/v1/me/stream``)."""

    seq: int
    kind: str  # your_turn, can_react, deadline_soon, timed_out, round_over, game_over, game_started, invited; inbox
    game_id: str | None
    version: int | None
    seats: list[int]
    at: str | None
    data: dict[str, Any]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Notification:
        return cls(int(d.get("seq", 0)), d["kind"], d.get("game_id"), d.get("version"), list(d.get("seats") or []),
                   d.get("at"), dict(d.get("data") or {}))
