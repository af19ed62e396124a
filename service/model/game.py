"""A game as the service folds it: service events around one ruleset's state.

The stream of a game holds the service's own events (:data:`SERVICE_EVENTS`: opening,
seats, invitations, resignations, votes, vacations, the end of a game the rules did not
end, the secret's reveal) and, once every seat is filled, the ruleset's events, stored as
``type`` = class name and ``data`` = ``domain.codec.to_json(event)`` (the full truth).
Nothing here does I/O.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from domain import codec, rules
from domain.messages import FinalWindowExpired
from domain.ruleset import Ruleset

SERVICE_EVENTS = frozenset({
    "GameOpened", "SeatTaken", "SecretRevealed", "SeatLeft", "SeatReserved", "InvitationDeclined",
    "GameCancelled", "SeatResigned", "GameConcluded", "VoteCast", "SeatReplaced", "SeatReclaimed",
    "GameAborted", "ClockPaused", "ClockResumed", "RematchOpened",
})
#: how many turns in a row a seat may time out before the others may vote (GameOpened's default)
TIMEOUTS_BEFORE_VOTE = 3
#: what a game opened before per-game time control waits (the service's former defaults)
DEFAULT_TURN_SECONDS = 72 * 3600
DEFAULT_FINAL_WINDOW_SECONDS = 24 * 3600


@lru_cache(maxsize=4096)
def moment(iso: str) -> datetime:
    """An RFC 3339 time of the log as a datetime (cached: the same few strings recur)."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def iso(at: datetime) -> str:
    """RFC 3339 in UTC with ``Z``, as the log and every answer write times."""
    return at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Fixed when a game is opened (``GameOpened.time_control``)."""

    turn_seconds: int
    final_window_seconds: int

    def to_json(self) -> dict[str, int]:
        return {"turn_seconds": self.turn_seconds, "final_window_seconds": self.final_window_seconds}

    @staticmethod
    def of_json(data: Any) -> TimeControl | None:
        if data is None:
            return None
        return TimeControl(int(data["turn_seconds"]), int(data["final_window_seconds"]))


LEGACY = TimeControl(DEFAULT_TURN_SECONDS, DEFAULT_FINAL_WINDOW_SECONDS)


@dataclass(frozen=True, slots=True)
class Pause:
    """A seat's clock stands still from ``start`` to ``until`` (its player's vacation)."""

    seat: int
    player_id: str
    start: str
    until: str


def pauses_after(pauses: Sequence[Pause], seat: int, at: str) -> tuple[Pause, ...]:
    """The pauses with the seat's vacation ended at ``at`` (shortened, or dropped if not begun)."""
    t = moment(at)
    out = []
    for p in pauses:
        if p.seat != seat or moment(p.until) <= t:
            out.append(p)
        elif moment(p.start) < t:
            out.append(Pause(p.seat, p.player_id, p.start, at))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    player_id: str
    name: str
    entropy: str
    status: str = "playing"  # "playing" | "resigned" | "bot" (played by a server bot)
    bot: str | None = None
    bot_account: bool = False  # the player's account is a bot's (registered as one)


@dataclass(frozen=True, slots=True)
class Reservation:
    """A seat kept for an invited player until they join or decline."""

    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Deadline:
    """What the service sends when nobody moves in time (docs/rules/README.md): the ruleset's system
    commands for the current wait, and since when that wait has run (an event's ``at``)."""

    commands: tuple[Any, ...]
    since: str

    @property
    def kind(self) -> str:
        return "final_window" if any(isinstance(c, FinalWindowExpired) for c in self.commands) else "turn"


@dataclass(frozen=True)
class Timeouts:
    """Service settings, never read by a game once opened: the time control a game gets
    when its creator names none, the bounds a chosen one must keep, the vacation allowance
    and the timeouts in a row after which the others may vote."""

    turn: float = 72 * 3600.0
    final_window: float = 24 * 3600.0
    turn_min: float = 3600.0
    turn_max: float = 30 * 86400.0
    vacation_days: int = 30
    before_vote: int = TIMEOUTS_BEFORE_VOTE

    def default(self) -> TimeControl:
        return TimeControl(int(self.turn), int(self.final_window))


@dataclass(frozen=True, slots=True)
class Vote:
    seat: int  # the seat voted on
    voter: int
    kind: str  # "replace_with_bot" | "abort"


@dataclass(frozen=True, slots=True)
class Game:
    """Everything the service knows of a game at one version (the snapshot: service.model.snapshots)."""

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
    time_control: TimeControl | None = LEGACY
    visibility: str = "public"
    timeouts_before_vote: int = TIMEOUTS_BEFORE_VOTE
    reserved: tuple[Reservation | None, ...] = ()
    timeouts: tuple[int, ...] = ()  # turns each seat timed out in a row
    last_timeout: tuple[Any, ...] | None = None  # the last timed-out command counted
    votes: tuple[Vote, ...] = ()
    pauses: tuple[Pause, ...] = ()
    resigned: tuple[int, ...] = ()  # in the order they resigned
    ended: str | None = None  # "cancelled" | "aborted" | "concluded": the service ended it
    concluded_winners: tuple[int, ...] = ()
    ruleset_winners: tuple[int, ...] | None = None  # GameEnded's
    rematch_of: str | None = None
    next_game: str | None = None
    rated: bool | None = None  # as opened: None, the default (service.model.ratings.is_rated)
    # a table of a tournament (docs/tournaments.md): its id, round and table; and for a
    # duplicate board, the board's commitment (the deals come from its seed alone)
    tournament: tuple[str, int, int] | None = None
    board: str | None = None

    @property
    def status(self) -> str:
        if self.ended is not None:
            return "finished" if self.ended == "concluded" else self.ended
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

    def reserved_seat(self, player_id: str | None) -> int | None:
        return next((i for i, r in enumerate(self.reserved) if r is not None and r.player_id == player_id), None)

    def free_seat(self) -> int | None:
        """The first seat neither taken nor kept for an invited player."""
        return next((i for i, s in enumerate(self.seats) if s is None and self.reservation(i) is None), None)

    def reservation(self, seat: int) -> Reservation | None:
        return self.reserved[seat] if seat < len(self.reserved) else None

    def seat_status(self, seat: int) -> str:
        s = self.seats[seat]
        return "empty" if s is None else s.status

    def playing(self) -> list[int]:
        """Seats still played by their players (neither resigned nor replaced by a bot)."""
        return [i for i, s in enumerate(self.seats) if s is not None and s.status == "playing"]


    def timeouts_of(self, seat: int) -> int:
        return self.timeouts[seat] if seat < len(self.timeouts) else 0

    def winners(self) -> tuple[int, ...] | None:
        """Who won (None while nobody has): the rules' winners, never a seat that resigned;
        if they all did, the lowest score among the others."""
        if self.ended == "concluded":
            return self.concluded_winners
        if self.status != "finished":
            return None
        out = tuple(s for s in self.ruleset_winners or () if s not in self.resigned)
        if out or self.rules is None:
            return out
        scores = rules.get(self.ruleset).scores(self.rules)
        left = [s for s in range(len(self.seats)) if s not in self.resigned]
        low = min(scores[s] for s in left) if left else 0
        return tuple(s for s in left if scores[s] == low)



def _opened(stream_id: str, data: Mapping[str, Any], at: str) -> Game:
    seats = int(data["seats"])
    # a game opened before per-game time control waits as the service then did (LEGACY)
    tc = TimeControl.of_json(data["time_control"]) if "time_control" in data else LEGACY
    return Game(stream_id, data["ruleset"], data["name"], dict(data["options"]), data["creator"],
                data["secret_commitment"], (None,) * seats, updated_at=at, time_control=tc,
                visibility=data.get("visibility", "public"),
                timeouts_before_vote=int(data.get("timeouts_before_vote", TIMEOUTS_BEFORE_VOTE)),
                reserved=(None,) * seats, timeouts=(0,) * seats, rematch_of=data.get("rematch_of"),
                rated=data.get("rated"), tournament=_link(data.get("tournament")),
                board=(data.get("board") or {}).get("commitment"))


def _link(data: Mapping[str, Any] | None) -> tuple[str, int, int] | None:
    return None if not data else (str(data["id"]), int(data["round"]), int(data["table"]))


def _put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    out = list(items)
    out[i] = value
    return tuple(out)


def _seat(game: Game, seat: int, **changes: Any) -> tuple[SeatInfo | None, ...]:
    s = game.seats[seat]
    assert s is not None
    return _put(game.seats, seat, replace(s, **changes))


def _service(game: Game, type_: str, data: Mapping[str, Any], at: str) -> Game:
    """The game after one of the service's own events (other than GameOpened)."""
    seat = data.get("seat")
    if type_ == "SeatTaken":
        taken = SeatInfo(data["player_id"], data["name"], data["entropy"], bot_account=bool(data.get("bot_account")))
        return replace(game, seats=_put(game.seats, seat, taken),
                       reserved=_put(game.reserved, seat, None))
    if type_ == "SecretRevealed":
        return replace(game, secret=data["secret"])
    if type_ == "SeatLeft":
        return replace(game, seats=_put(game.seats, seat, None), pauses=tuple(p for p in game.pauses if p.seat != seat))
    if type_ == "SeatReserved":
        return replace(game, reserved=_put(game.reserved, seat, Reservation(data["player_id"], data["name"])))
    if type_ == "InvitationDeclined":
        return replace(game, reserved=_put(game.reserved, seat, None))
    if type_ == "GameCancelled":
        return replace(game, ended="cancelled", deadline=None)
    if type_ == "GameAborted":
        return replace(game, ended="aborted", deadline=None, votes=())
    if type_ == "GameConcluded":
        return replace(game, ended="concluded", concluded_winners=tuple(data["winners"]), deadline=None, votes=())
    if type_ == "SeatResigned":
        return replace(game, seats=_seat(game, seat, status="resigned", bot=None), resigned=(*game.resigned, seat),
                       votes=tuple(v for v in game.votes if seat not in (v.seat, v.voter)))
    if type_ == "VoteCast":
        kept = tuple(v for v in game.votes if (v.seat, v.voter) != (seat, data["voter"]))
        return replace(game, votes=(*kept, Vote(seat, data["voter"], data["kind"])))
    if type_ == "SeatReplaced":
        return replace(game, seats=_seat(game, seat, status="bot", bot=data["bot"]),
                       votes=tuple(v for v in game.votes if v.seat != seat))
    if type_ == "SeatReclaimed":
        return replace(game, seats=_seat(game, seat, status="playing", bot=None), timeouts=_put(game.timeouts, seat, 0))
    if type_ == "ClockPaused":
        return replace(game, pauses=(*game.pauses, Pause(seat, data["player_id"], data["from"], data["until"])))
    if type_ == "ClockResumed":
        return replace(game, pauses=pauses_after(game.pauses, seat, data["at"]))
    if type_ == "RematchOpened":
        return replace(game, next_game=data["next_game"])
    raise ValueError(f"unknown service event {type_}")


def evolve(game: Game | None, type_: str, data: Mapping[str, Any], metadata: Mapping[str, Any],
           stream_id: str) -> Game:
    """The next game after one stored event."""
    at = str(metadata.get("at") or "")
    if type_ == "GameOpened":
        return _opened(stream_id, data, at)
    assert game is not None, "a game stream starts with GameOpened"
    if type_ in SERVICE_EVENTS:
        return replace(_service(game, type_, data, at), updated_at=at)
    rs = rules.get(game.ruleset)
    event = codec.build(rs.event_types[type_], data)
    return advance(game, rs, rs.evolve(game.rules, event), at, metadata, event)


def _counted(game: Game, meta: Mapping[str, Any] | None, at: str) -> Game:
    """The timeouts in a row after a ruleset event: one more for the seat of a timed-out
    turn (once per command, however many events it made), none for a seat that moved."""
    if not meta:
        return game
    actor, command = meta.get("actor"), meta.get("command")
    if actor is None:
        if isinstance(command, Mapping) and command.get("type") == "TurnTimedOut":
            sig = (at, command.get("seat"), command.get("turn_no"))
            seat = command.get("seat")
            if sig != game.last_timeout and isinstance(seat, int) and 0 <= seat < len(game.timeouts):
                return replace(game, timeouts=_put(game.timeouts, seat, game.timeouts[seat] + 1), last_timeout=sig)
        return game
    if meta.get("bot") is None and isinstance(actor, int) and game.timeouts_of(actor):
        return replace(game, timeouts=_put(game.timeouts, actor, 0),
                       votes=tuple(v for v in game.votes if v.seat != actor))
    return game


def advance(game: Game, rs: Ruleset, state: Any, at: str, meta: Mapping[str, Any] | None = None,
            event: Any = None) -> Game:
    """The game with its ruleset state moved on at ``at`` by ``event`` (sent with ``meta``),
    and its deadline's clock: it keeps running while the wait goes on (the same commands,
    or fewer: seats of an initial peek choosing one by one) and restarts when a new wait begins."""
    game = _counted(game, meta, at)
    commands = () if rs.is_terminal(state) else tuple(rs.deadlines(state))
    old = game.deadline
    if not commands:
        deadline = None
    elif old is not None and set(commands) <= set(old.commands):
        deadline = old if commands == old.commands else Deadline(commands, old.since)
    else:
        deadline = Deadline(commands, at)
    if event is not None and type(event).__name__ == "GameEnded":
        game = replace(game, ruleset_winners=tuple(event.winners), votes=())
    return replace(game, rules=state, updated_at=at, deadline=deadline)


class UnreadableLog(Exception):
    """A stored event of a game does not fold: an unknown type or data that does not fit it.
    The service never writes one; only an edit behind the append function can (the audit
    names it, and the game takes nothing more)."""

    def __init__(self, game_id: str, version: int, reason: str) -> None:
        super().__init__(f"game {game_id}: event {version} cannot be read ({reason})")
        self.game_id, self.version, self.reason = game_id, version, reason


def unreadable(rec: Any, exc: Exception) -> UnreadableLog:
    """What failed while the stored event ``rec`` was read is that event's fault (an unknown
    type, data that does not fit it): the error to raise instead."""
    return UnreadableLog(str(rec.stream_id), rec.version, f"{type(exc).__name__}: {exc}")


def fold_records(game: Game | None, records: Iterable[Any]) -> Game | None:
    """``game`` with ``records`` applied in order; :class:`UnreadableLog` names the first that
    does not fold."""
    for rec in records:
        try:  # free when nothing is raised: this loop is every view's and command's
            game = evolve(game, rec.type, rec.data, rec.metadata, str(rec.stream_id))
        except Exception as exc:  # noqa: BLE001 - whatever it is, the event is the cause
            raise unreadable(rec, exc) from exc
    return game


def metadata(at: str, seat: int | None, player: str | None, command: Any = None,
             command_id: str | None = None) -> dict[str, Any]:
    """The metadata of every stored event: who sent what, and when (``actor`` None: the server)."""
    return {"actor": seat, "player": player, "command": command, "command_id": command_id, "at": at}
