"""Opening and joining games: the service's own events before the ruleset deals.

A game is opened with its time control (or none), its visibility and the seats kept for
invited players; an unlisted game is joined with its invite code (derived from the game's
secret, so that nothing but the secret is stored, and no event holds it), a kept seat by
its invited player alone.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain import codec, rules
from domain.errors import InvalidOptions
from domain.messages import SYSTEM_COMMANDS
from events import game_index, players
from events.store import NewEvent
from service.adapters.repository import Appended, Current, Decision, Idempotency, folded, pending
from service.model import fairness
from service.model.caches import Lru
from service.model.game import Game, TimeControl, fold_records, metadata
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies

# a game created with an Idempotency-Key gets the id uuid5(player, key): a retry finds it
_CREATED_NS = uuid.UUID("3f0c2a61-5d0e-4b8e-9c55-8a0d6f1e2b7c")
_CODES = Lru(100_000)  # game -> invite code (immutable: derived from the game's secret)


@dataclass(frozen=True, slots=True)
class Opening:
    """How a game is opened beyond its rules: ``time_control`` None is a game without a
    clock, ``"default"`` the service's; ``invited`` are (seat, player id, name) kept."""

    time_control: TimeControl | None | str = "default"
    visibility: str = "public"
    invited: Sequence[tuple[int, str, str]] = ()
    game_id: uuid.UUID | None = None
    rematch_of: str | None = None
    seat: int = 0  # the creator's seat, when they take one
    rated: bool | None = None  # None: rated unless a bot account sits (service.model.ratings)



def available() -> list[str]:
    """Rulesets that import cleanly (others may be mid-development)."""
    try:
        return rules.names()
    except Exception:  # noqa: BLE001 - one ruleset mid-development must not hide the others
        pass
    out = []
    for name in ("corte", "cuatro-cartas", "pedro", "least-score"):
        try:
            rules.get(name)
        except Exception:  # noqa: BLE001 - a broken module is simply not offered
            continue
        out.append(name)
    return out


def rulesets() -> list[dict[str, Any]]:
    """Every ruleset offered: its players, options with their schemas and defaults, the
    commands a player sends and the server's own, and its events (``GET /v1/rulesets``)."""
    out = []
    for name in available():
        rs = rules.get(name)
        commands = sorted(rs.command_types)
        out.append({"name": rs.name, "title": rs.title, "min_players": rs.min_players,
                    "max_players": rs.max_players, "options": [o.schema() for o in rs.options],
                    "defaults": {o.key: o.default for o in rs.options},
                    "commands": [c for c in commands if c not in SYSTEM_COMMANDS],
                    "system_commands": [c for c in commands if c in SYSTEM_COMMANDS],
                    "events": list(rs.event_types)})
    return out


def time_control(deps: Dependencies, raw: dict[str, Any] | None) -> TimeControl | None:
    """The time control a creator asked for (``{}``: the service's defaults; None: no clock),
    within the service's bounds (422 otherwise)."""
    if raw is None:
        return None
    default, t = deps.timeouts.default(), deps.timeouts
    chosen = TimeControl(raw.get("turn_seconds") or default.turn_seconds,
                         raw.get("final_window_seconds") or default.final_window_seconds)
    errors = {k: [f"must be between {int(t.turn_min)} and {int(t.turn_max)} seconds"]
              for k in ("turn_seconds", "final_window_seconds")
              if raw.get(k) is not None and not t.turn_min <= raw[k] <= t.turn_max}
    if errors:
        raise Problem("validation", "the time control is out of bounds", errors={"time_control": errors})
    return chosen


def invite_code(deps: Dependencies, gid: uuid.UUID) -> str:
    """The code that joins an unlisted game: an HMAC of the game's secret (so it becomes
    public only with the secret, when the game is over)."""
    code = _CODES.get_(gid)
    if code is None:
        digest = hmac.new(deps.games.secret(gid), b"facedown/invite-code", hashlib.sha256).digest()
        code = base64.b32encode(digest[:10]).decode().lower()
        _CODES.put(gid, code)
    return code  # type: ignore[no-any-return]


def invite_code_for(deps: Dependencies, gid: uuid.UUID, player: str) -> str:
    """The invite code, for one of the game's seated players only (403 for anyone else)."""
    if deps.games.load(gid).game.seat_of(player) is None:
        raise Problem("forbidden", "only the game's seated players may read its invite code")
    return invite_code(deps, gid)


def code_matches(deps: Dependencies, gid: uuid.UUID, code: str | None) -> bool:
    return code is not None and hmac.compare_digest(code.strip().lower(), invite_code(deps, gid))


def _seated(deps: Dependencies, gid: uuid.UUID, player: str, appended: Appended) -> tuple[Current, int | None]:
    """The game after a creation or a join, with the caller's seat (a retry: the game as it is now)."""
    cur = appended.current if appended.current is not None else deps.games.load(gid)
    return cur, cur.game.seat_of(player)


def seat_taken(deps: Dependencies, seat: int, player: tuple[str, str], entropy: bytes | None, at: str) -> NewEvent:
    """A player takes a seat, with their entropy (the server draws it for one who sends none)."""
    data: dict[str, Any] = {"seat": seat, "player_id": player[0], "name": player[1],
                            "entropy": (entropy or fairness.new_entropy()).hex()}
    row = players.by_id(deps.db, uuid.UUID(player[0]))
    if row is not None and row.bot:  # in the log: a game's ratings are decided from it alone
        data["bot_account"] = True
    return NewEvent("SeatTaken", data, metadata(at, seat, player[0]))


def resolve_rules(ruleset_name: str, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options resolved for the ruleset and the number of seats (422 if they do not fit)."""
    try:
        rs = rules.get(ruleset_name)
    except (KeyError, ImportError) as exc:
        raise Problem("validation", f"unknown ruleset {ruleset_name!r}",
                      errors={"ruleset": [f"must be one of {available()}"]}) from exc
    if not rs.min_players <= seats <= rs.max_players:
        raise Problem("validation", f"{ruleset_name} is for {rs.min_players}-{rs.max_players} players",
                      errors={"seats": [f"must be between {rs.min_players} and {rs.max_players}"]})
    try:
        return rs.resolve_options(dict(options), seats)
    except InvalidOptions as exc:
        raise Problem("invalid-options", str(exc), errors={k: [v] for k, v in exc.errors.items()}) from exc


def create_game(deps: Dependencies, player: tuple[str, str], ruleset_name: str, seats: int, options: Mapping[str, Any],
                name: str | None, take_seat: bool, entropy: bytes | None, idem_key: str | None = None,
                body: Any = None, opening: Opening = Opening()) -> tuple[Current, int | None]:
    resolved = resolve_rules(ruleset_name, seats, options)
    pid = player[0]
    idem = Idempotency.of_request(pid, idem_key, "POST", "/v1/games", body)
    if idem is not None:
        gid = uuid.uuid5(_CREATED_NS, f"{pid}\n{idem_key}")
        done = deps.games.processed(gid, idem)
        if done is not None:
            return _seated(deps, gid, pid, done)
    else:
        gid = opening.game_id or uuid.uuid4()
    # a retry racing the first request stores no second secret: both commit to the stored one
    secret = game_index.put_secret(deps.db, gid, fairness.new_secret())
    at = deps.now()
    tc = deps.timeouts.default() if opening.time_control == "default" else opening.time_control
    assert tc is None or isinstance(tc, TimeControl)
    opened: dict[str, Any] = {
        "ruleset": ruleset_name, "seats": seats, "options": resolved, "name": name or f"{rules.get(ruleset_name).title} game",
        "creator": pid, "secret_commitment": fairness.secret_commitment(secret),
        "time_control": tc.to_json() if tc else None, "visibility": opening.visibility,
        "timeouts_before_vote": deps.timeouts.before_vote}
    if opening.rematch_of:
        opened["rematch_of"] = opening.rematch_of
    if opening.rated is not None:
        opened["rated"] = opening.rated
    events = [NewEvent("GameOpened", opened, metadata(at, None, pid))]
    for seat, invitee, invitee_name in opening.invited:
        events.append(NewEvent("SeatReserved", {"seat": seat, "player_id": invitee, "name": invitee_name, "by": pid},
                               metadata(at, None, pid)))
    if take_seat:
        events.append(seat_taken(deps, opening.seat, player, entropy, at))
    game = fold_records(None, pending(events, gid))
    assert game is not None
    return _seated(deps, gid, pid, deps.games.create(Decision(game, events), idem))


def join_game(deps: Dependencies, gid: uuid.UUID, player: tuple[str, str], entropy: bytes | None,
              idem_key: str | None = None, body: Any = None) -> tuple[Current, int | None]:
    """Take a free seat (an invited player: the seat kept for them); the last seat deals."""
    pid = player[0]
    idem = Idempotency.of_request(pid, idem_key, "POST", f"/v1/games/{gid}/join", body)
    code = body.get("invite_code") if isinstance(body, Mapping) else None

    def decide(cur: Current) -> Decision:
        game = cur.game
        if game.seat_of(pid) is not None:
            raise Problem("already-seated", f"you already hold seat {game.seat_of(pid)}", seat=game.seat_of(pid))
        seat = game.reserved_seat(pid)
        if seat is None and game.visibility == "unlisted" and not code_matches(deps, gid, code):
            raise Problem("not-found", f"no game {gid}")  # a stranger learns nothing of an unlisted game
        if game.status != "open":
            raise Problem("game-not-open", f"the game is {game.status}")
        seat = game.free_seat() if seat is None else seat
        if seat is None:
            raise Problem("game-not-open", "every seat of this game is taken or kept for an invited player")
        at = deps.now()
        events = [seat_taken(deps, seat, player, entropy, at)]
        game = folded(game, events, gid)
        if all(s is not None for s in game.seats):  # the last seat: deal
            dealt = deal(deps, game, at)
            events += dealt
            game = folded(game, dealt, gid)
        return Decision(game, events)

    appended = deps.games.update(gid, decide, idem)
    assert appended is not None
    return _seated(deps, gid, pid, appended)


def deal(deps: Dependencies, game: Game, at: str) -> list[NewEvent]:
    """The ruleset's first events once every seat is taken: the deal, from the game's key."""
    rs = rules.get(game.ruleset)
    return [NewEvent(type(ev).__name__, codec.to_json(ev), metadata(at, None, None))
            for ev in rs.start(len(game.seats), game.options, deps.games.chance_key(game))]
