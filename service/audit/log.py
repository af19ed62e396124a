"""The game log as the audit reads it: service events, seats, secret, ruleset events.

Pure (standard library + ``domain`` + ``service.model.game``): used by the server's
audit and by the offline verifier alike. An event here is the export's JSON form
``{"version", "type", "schema_version", "data", "metadata", "prev_hash", "hash", ...}``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import codec, rules
from domain.ruleset import Ruleset
from service.model.game import SERVICE_EVENTS

#: Event types written by the service itself, not by a ruleset.
SERVICE_TYPES = SERVICE_EVENTS
#: Ruleset events that hold a shuffled order (and its commitment).
SHUFFLE_TYPES = frozenset({"RoundDealt", "StockReshuffled"})


@dataclass
class GameLog:
    """What the audit needs to know of one game's events."""

    events: list[dict[str, Any]]
    ruleset_name: str | None = None
    players: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    secret_commitment: str | None = None
    #: seat -> entropy (hex) as recorded in SeatTaken
    entropy: dict[int, str] = field(default_factory=dict)
    #: player id -> seat
    seat_of: dict[str, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    secret: str | None = None
    secret_version: int | None = None
    #: a duplicate board's commitment (GameOpened's ``board``): the deals come from its seed
    board_commitment: str | None = None

    @property
    def ruleset(self) -> Ruleset | None:
        if self.ruleset_name is None:
            return None
        try:
            return rules.get(self.ruleset_name)
        except KeyError:
            return None

    def ruleset_events(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") not in SERVICE_TYPES]

    def entropies(self) -> list[bytes]:
        """Seat entropy in seat order (raises ValueError on bad hex or a missing seat)."""
        return [bytes.fromhex(self.entropy[s]) for s in range(self.players)]

    def seat_for(self, metadata: Any) -> int | None:
        """The seat that sent the command recorded in ``metadata`` (None: system)."""
        if not isinstance(metadata, Mapping):
            return None
        for k in ("seat", "actor"):  # the API records the acting seat as "actor"
            seat = metadata.get(k)
            if isinstance(seat, int) and not isinstance(seat, bool):
                return seat
        player = metadata.get("player")
        if isinstance(player, str) and player in self.seat_of:
            return self.seat_of[player]
        return None

    def finished(self) -> bool:
        """The game is over: its secret was revealed, or its ruleset says so."""
        if self.secret is not None:
            return True
        return any(e.get("type") == "GameEnded" for e in self.events)

    def finished_rounds_upto(self) -> int:
        """The last version that belongs to finished rounds only (0: no round finished).

        The current round starts at its ``RoundDealt``; everything before it is
        public or revealed (its round ended with ``RoundRevealed``).
        """
        last_deal: int | None = None
        revealed_after_deal = False
        any_revealed = False
        for e in self.events:
            if e.get("type") == "RoundDealt":
                last_deal, revealed_after_deal = int(e["version"]), False
            elif e.get("type") == "RoundRevealed":
                revealed_after_deal = any_revealed = True
        if self.finished():
            return int(self.events[-1]["version"]) if self.events else 0
        if last_deal is None or not any_revealed:
            return 0
        return int(self.events[-1]["version"]) if revealed_after_deal else last_deal - 1


def read_log(events: Sequence[dict[str, Any]]) -> GameLog:
    """Collect the service facts (ruleset, seats, entropy, secret) from the events."""
    log = GameLog(list(events))
    for e in events:
        data = e.get("data") if isinstance(e.get("data"), Mapping) else {}
        assert isinstance(data, Mapping)
        kind = e.get("type")
        if kind == "GameOpened":
            log.ruleset_name = data.get("ruleset")
            seats = data.get("seats")
            log.players = len(seats) if isinstance(seats, list) else int(seats or 0)
            log.options = dict(data.get("options") or {})
            log.secret_commitment = data.get("secret_commitment")
            board = data.get("board")  # a duplicate board's table: dealt from the board's seed
            log.board_commitment = board.get("commitment") if isinstance(board, Mapping) else None
        elif kind == "SeatTaken":
            seat = int(data.get("seat", -1))
            log.entropy[seat] = str(data.get("entropy") or "")
            if data.get("player_id") is not None:
                log.seat_of[str(data["player_id"])] = seat
            log.names[seat] = str(data.get("name") or f"seat {seat}")
        elif kind == "SeatLeft":  # the seat is free again: a later SeatTaken brings its entropy
            seat = int(data.get("seat", -1))
            log.entropy.pop(seat, None)
            log.names.pop(seat, None)
            log.seat_of.pop(str(data.get("player_id")), None)
        elif kind == "SecretRevealed":
            log.secret = data.get("secret")
            log.secret_version = int(e["version"])
    return log


def build_event(ruleset: Ruleset, event: Mapping[str, Any]) -> Any:
    """The domain object of a stored ruleset event."""
    return codec.build(ruleset.event_types[event["type"]], event["data"])


def state_at(log: GameLog, version: int) -> Any:
    """The ruleset's state after every event up to ``version`` (None before the start)."""
    ruleset = log.ruleset
    if ruleset is None:
        raise LookupError("unknown ruleset")
    state = None
    for e in log.ruleset_events():
        if int(e["version"]) > version:
            break
        state = ruleset.evolve(state, build_event(ruleset, e))
    return state
