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
from events import game_index
from events.canonical import canonical
from events.store import NewEvent
from service.model import fairness
from service.model.clock import TimeControl
from service.usecases.dependencies import Api, Lru
from service.model.game import Game, fold_records, metadata
from service.model.problems import Problem
from service.adapters.repository import Appended, Current, Decision, Idempotency, pending

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


def request_hash(method: str, path: str, player: str, body: Any) -> str:
    """What makes two requests under one Idempotency-Key the same request."""
    return hashlib.sha256(canonical([method, path, player, body]).encode("utf-8", "surrogatepass")).hexdigest()


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


def invite_code(api: Api, gid: uuid.UUID) -> str:
    """The code that joins an unlisted game: an HMAC of the game's secret (so it becomes
    public only with the secret, when the game is over)."""
    code = _CODES.get_(gid)
    if code is None:
        digest = hmac.new(api.games.secret(gid), b"facedown/invite-code", hashlib.sha256).digest()
        code = base64.b32encode(digest[:10]).decode().lower()
        _CODES.put(gid, code)
    return code  # type: ignore[no-any-return]


def code_matches(api: Api, gid: uuid.UUID, code: str | None) -> bool:
    return code is not None and hmac.compare_digest(code.strip().lower(), invite_code(api, gid))


def _seated(api: Api, gid: uuid.UUID, player: str, appended: Appended) -> tuple[Current, int | None]:
    """The game after a creation or a join, with the caller's seat (a retry: the game as it is now)."""
    cur = appended.current if appended.current is not None else api.games.load(gid)
    return cur, cur.game.seat_of(player)


def _seat_taken(seat: int, player: tuple[str, str], entropy: bytes | None, at: str) -> NewEvent:
    data = {"seat": seat, "player_id": player[0], "name": player[1],
            "entropy": (entropy or fairness.new_entropy()).hex()}
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


def create_game(api: Api, player: tuple[str, str], ruleset_name: str, seats: int, options: Mapping[str, Any],
                name: str | None, take_seat: bool, entropy: bytes | None, idem_key: str | None = None,
                body: Any = None, opening: Opening = Opening()) -> tuple[Current, int | None]:
    resolved = resolve_rules(ruleset_name, seats, options)
    pid = player[0]
    idem = None
    if idem_key:
        gid = uuid.uuid5(_CREATED_NS, f"{pid}\n{idem_key}")
        idem = Idempotency.scoped(pid, idem_key, request_hash("POST", "/v1/games", pid, body))
        done = api.games.processed(gid, idem)
        if done is not None:
            return _seated(api, gid, pid, done)
    else:
        gid = opening.game_id or uuid.uuid4()
    # a retry racing the first request stores no second secret: both commit to the stored one
    secret = game_index.put_secret(api.db, gid, fairness.new_secret())
    at = api.now()
    tc = api.timeouts.default() if opening.time_control == "default" else opening.time_control
    assert tc is None or isinstance(tc, TimeControl)
    opened: dict[str, Any] = {
        "ruleset": ruleset_name, "seats": seats, "options": resolved, "name": name or f"{rules.get(ruleset_name).title} game",
        "creator": pid, "secret_commitment": fairness.secret_commitment(secret),
        "time_control": tc.to_json() if tc else None, "visibility": opening.visibility,
        "timeouts_before_vote": api.timeouts.before_vote}
    if opening.rematch_of:
        opened["rematch_of"] = opening.rematch_of
    events = [NewEvent("GameOpened", opened, metadata(at, None, pid))]
    for seat, invitee, invitee_name in opening.invited:
        events.append(NewEvent("SeatReserved", {"seat": seat, "player_id": invitee, "name": invitee_name, "by": pid},
                               metadata(at, None, pid)))
    if take_seat:
        events.append(_seat_taken(opening.seat, player, entropy, at))
    game = fold_records(None, pending(events, gid))
    assert game is not None
    return _seated(api, gid, pid, api.games.create(Decision(game, events), idem))


def join_game(api: Api, gid: uuid.UUID, player: tuple[str, str], entropy: bytes | None,
              idem_key: str | None = None, body: Any = None) -> tuple[Current, int | None]:
    """Take a free seat (an invited player: the seat kept for them); the last seat deals."""
    pid = player[0]
    idem = Idempotency.scoped(pid, idem_key, request_hash("POST", f"/v1/games/{gid}/join", pid, body)) if idem_key else None
    code = body.get("invite_code") if isinstance(body, Mapping) else None

    def decide(cur: Current) -> Decision:
        game = cur.game
        if game.seat_of(pid) is not None:
            raise Problem("already-seated", f"you already hold seat {game.seat_of(pid)}", seat=game.seat_of(pid))
        seat = game.reserved_seat(pid)
        if seat is None and game.visibility == "unlisted" and not code_matches(api, gid, code):
            raise Problem("not-found", f"no game {gid}")  # a stranger learns nothing of an unlisted game
        if game.status != "open":
            raise Problem("game-not-open", f"the game is {game.status}")
        seat = game.free_seat() if seat is None else seat
        if seat is None:
            raise Problem("game-not-open", "every seat of this game is taken or kept for an invited player")
        at = api.now()
        events = [_seat_taken(seat, player, entropy, at)]
        game = folded(game, events, gid)
        if all(s is not None for s in game.seats):  # the last seat: deal
            rs = rules.get(game.ruleset)
            dealt = [NewEvent(type(ev).__name__, codec.to_json(ev), metadata(at, None, None))
                     for ev in rs.start(len(game.seats), game.options, api.games.chance_key(game))]
            events += dealt
            game = folded(game, dealt, gid)
        return Decision(game, events)

    appended = api.games.update(gid, decide, idem)
    assert appended is not None
    return _seated(api, gid, pid, appended)


def folded(game: Game, events: list[NewEvent], gid: uuid.UUID) -> Game:
    out = fold_records(game, pending(events, gid))
    assert out is not None
    return out
