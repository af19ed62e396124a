"""Use cases of the game API: plain functions, load → fold → decide → append → present.

Each receives an :class:`Api` (store, database, clock, wake-up hints). Errors are
raised as :class:`service.problems.Problem`; nothing here knows about HTTP requests.
"""
from __future__ import annotations

import hashlib
import pickle
import secrets as pysecrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from domain import codec, rules
from domain.errors import InvalidOptions, RuleError
from events import game_index, players
from events.canonical import canonical
from events.db import Database
from events.errors import ConcurrencyError, IdempotencyConflict, InvalidData
from events.store import EventStore, NewEvent, Snapshot
from service import fairness
from service.gamestate import (
    Game, SeatInfo, Timeouts, advance, deadline_at, fingerprint, fold_records, present_record, view,
)
from service.live import Live
from service.problems import Problem

MAX_TRIES = 5
GAME_CACHE_SIZE = 4096  # games per worker (a Corte game pickles to about 2.5 KB)
# versions between snapshots: a cold load (a worker that has not seen the game) reads the
# snapshot and folds at most SNAPSHOT_EVERY - 1 events; warm reads never need one. Writing
# one with every append cost a pickle and a 2.5 KB row version per command.
SNAPSHOT_EVERY = 16
_RULE_SLUGS = {"not_your_turn": "not-your-turn", "wrong_phase": "wrong-phase", "no_window": "no-window",
               "stale_window": "stale-window", "locked": "locked", "invalid": "invalid-command"}


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class _Lru(OrderedDict[Any, Any]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.lock = threading.Lock()

    def get_(self, key: Any) -> Any:
        with self.lock:
            return self.get(key)

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self[key] = value
            self.move_to_end(key)
            while len(self) > self.size:
                self.popitem(last=False)

    def drop(self, key: Any) -> None:
        with self.lock:
            self.pop(key, None)


@dataclass
class Api:
    """What the use cases share (one per app)."""

    store: EventStore
    db: Database
    live: Live
    clock: Callable[[], datetime] = utc_now
    timeouts: Timeouts = field(default_factory=Timeouts)
    _rulesets: _Lru = field(default_factory=lambda: _Lru(100_000))  # game -> ruleset name (immutable)
    _keys: _Lru = field(default_factory=lambda: _Lru(100_000))  # game -> chance key (immutable once dealt)
    _tokens: _Lru = field(default_factory=lambda: _Lru(100_000))  # token hash -> player
    # game -> _Cached: the latest game this worker folded. Shared between requests as is:
    # games and ruleset states are never mutated (tests/domain/test_state_immutability.py
    # holds every ruleset to it). Validated by version on every read (one query);
    # commands append optimistically on it.
    _games: _Lru = field(default_factory=lambda: _Lru(GAME_CACHE_SIZE))

    def now(self) -> str:
        return self.clock().astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Current:
    game: Game
    version: int
    head: bytes


@dataclass(frozen=True, slots=True)
class _Cached:
    version: int
    head: bytes
    game: Game


def _pickle(game: Game) -> bytes:
    return pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)


def _remember(api: Api, gid: uuid.UUID, version: int, head: bytes, game: Game) -> None:
    old = api._games.get_(gid)
    if old is None or old.version < version:  # never replace a newer copy by an older one
        api._games.put(gid, _Cached(version, head, game))


def _cached(api: Api, gid: uuid.UUID) -> Current | None:
    """This worker's latest copy of the game, unverified (no query): for optimistic appends."""
    hit = api._games.get_(gid)
    if hit is None:
        return None
    return Current(hit.game, hit.version, hit.head)


def _meta(api: Api, at: str, seat: int | None, player: str | None, command: Any = None,
          command_id: str | None = None) -> dict[str, Any]:
    return {"actor": seat, "player": player, "command": command, "command_id": command_id, "at": at}


# ---------------------------------------------------------------- players

def register_player(api: Api, name: str) -> dict[str, Any]:
    token = pysecrets.token_urlsafe(32)
    digest = hashlib.sha256(token.encode()).hexdigest()
    pid = uuid.uuid4()
    ev = NewEvent("PlayerRegistered", {"name": name, "token_sha256": digest},
                  _meta(api, api.now(), None, str(pid)))
    try:
        api.store.append(pid, 0, [ev], kind="player", notify=False,
                         projections=[players.insert_projection(pid, name, digest)])
    except InvalidData as exc:
        raise Problem("validation", f"the name cannot be stored: {exc}") from exc
    return {"id": str(pid), "name": name, "token": token}


def rebuild_players(api: Api) -> int:
    """Rebuild the players projection from the event log alone; returns the number of players."""
    players.clear(api.db)
    ids = players.stream_ids(api.db)
    for pid in ids:
        for rec in api.store.read(pid):
            if rec.type == "PlayerRegistered":
                players.insert(api.db, pid, rec.data["name"], rec.data["token_sha256"])
    return len(ids)


def authenticate(api: Api, token: str) -> tuple[str, str] | None:
    """(player id, name) of a bearer token, or ``None``."""
    digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
    hit = api._tokens.get_(digest)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    row = players.by_token_hash(api.db, digest)
    if row is None:
        return None
    found = (str(row.id), row.name)
    api._tokens.put(digest, found)
    return found


# ---------------------------------------------------------------- loading

def _ruleset_of(api: Api, gid: uuid.UUID) -> str | None:
    name = api._rulesets.get_(gid)
    if name is None:
        first = api.store.read(gid, 0, limit=1)
        if not first or first[0].type != "GameOpened":
            return None
        name = first[0].data["ruleset"]
        api._rulesets.put(gid, name)
    return name  # type: ignore[no-any-return]


def load(api: Api, gid: uuid.UUID) -> Current:
    """The game at its head, in one query: this worker's cached copy plus the events after
    it, else the snapshot (if made by this code) plus newer events."""
    name = _ruleset_of(api, gid)
    if name is None:
        raise Problem("not-found", f"no game {gid}")
    hit = api._games.get_(gid)
    if hit is not None:
        loaded = api.store.load(gid, fingerprint(name), since=hit.version)
        if loaded is None:
            raise Problem("not-found", f"no game {gid}")
        if loaded.snapshot is None and loaded.version >= hit.version:
            game = fold_records(hit.game, loaded.events)
            assert game is not None
            if loaded.events:
                _remember(api, gid, loaded.version, loaded.head, game)
            return Current(game, loaded.version, loaded.head)
        if loaded.snapshot is None:  # the stream is behind the cache (never, short of a restore)
            api._games.drop(gid)
            loaded = api.store.load(gid, fingerprint(name))
    else:
        loaded = api.store.load(gid, fingerprint(name))
    if loaded is None:
        raise Problem("not-found", f"no game {gid}")
    game = None
    records = loaded.events
    if loaded.snapshot is not None:
        try:
            game = pickle.loads(loaded.snapshot.state)
        except Exception:  # a snapshot this code cannot read is rebuilt from the log
            game, records = None, api.store.read(gid, 0, upto=loaded.version)
    game = fold_records(game, records)
    assert game is not None
    _remember(api, gid, loaded.version, loaded.head, game)
    return Current(game, loaded.version, loaded.head)


def load_at(api: Api, gid: uuid.UUID, version: int) -> Game:
    game = fold_records(None, api.store.read(gid, 0, upto=version))
    assert game is not None
    return game


def _key(api: Api, game: Game) -> bytes:
    key = api._keys.get_(game.id)
    if key is None:
        secret = game_index.get_secret(api.db, uuid.UUID(game.id))
        if secret is None:
            raise Problem("internal", "the game's secret is missing")
        key = fairness.game_key(secret, [bytes.fromhex(s.entropy) for s in game.seats if s is not None])
        api._keys.put(game.id, key)
    return key  # type: ignore[no-any-return]


def _append(api: Api, cur: Current, game: Game, events: list[NewEvent], **kw: Any) -> Any:
    version = cur.version + len(events)
    snap = None
    # a snapshot when the append crosses a multiple of SNAPSHOT_EVERY (and on the first and
    # the final append): warm reads fold onto the worker's cache and never need one
    if cur.version == 0 or version // SNAPSHOT_EVERY != cur.version // SNAPSHOT_EVERY or game.status == "finished":
        snap = Snapshot(version, fingerprint(game.ruleset), _pickle(game))
    gid = uuid.UUID(game.id)
    try:
        result = api.store.append(gid, cur.version, events, snapshot=snap, notify=False,
                                  projections=_projections(game, version, events), **kw)
    except InvalidData as exc:
        raise Problem("validation", f"the request cannot be stored: {exc}") from exc
    if not result.duplicate:
        _remember(api, gid, result.version, result.head, game)
        api.live.hint(game.id, result.version)
    return result


def _projections(game: Game, version: int, events: list[NewEvent]) -> list[tuple[str, list[Any]]]:
    """The game index's update in the append: the whole row when seats change, else only
    what a command changes (a lighter statement on the hot path)."""
    if any(e.type in ("GameOpened", "SeatTaken") for e in events):
        return game_index.upsert_projection(index_row(game, version))
    return game_index.progress_projection(uuid.UUID(game.id), game.status, _awaiting(game), _time(game.updated_at),
                                          version, *_deadline_columns(game))


def _awaiting(game: Game) -> list[int]:
    return list(rules.get(game.ruleset).awaiting(game.rules)) if game.status == "active" else []


def _time(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def index_row(game: Game, version: int) -> game_index.IndexRow:
    seats = [{"seat": i, "player_id": s.player_id if s else None, "name": s.name if s else None}
             for i, s in enumerate(game.seats)]
    return game_index.IndexRow(uuid.UUID(game.id), game.ruleset, game.name, game.status, seats, _awaiting(game),
                               _time(game.updated_at), version, *_deadline_columns(game))


def _deadline_columns(game: Game) -> tuple[str | None, datetime | None]:
    d = game.deadline
    return (d.kind, _time(d.since)) if d else (None, None)


def index_game(api: Api, game: Game, version: int) -> None:
    game_index.upsert(api.db, index_row(game, version))


def rebuild_index(api: Api) -> int:
    """Rebuild the game index from the event log alone; returns the number of games."""
    game_index.clear(api.db)
    ids = game_index.game_stream_ids(api.db)
    for gid in ids:
        records = api.store.read(gid)
        game = fold_records(None, records)
        if game is not None:
            index_game(api, game, records[-1].version)
    return len(ids)


# ---------------------------------------------------------------- games

# a game created with an Idempotency-Key gets the id uuid5(player, key): a retry finds it
_CREATED_NS = uuid.UUID("3f0c2a61-5d0e-4b8e-9c55-8a0d6f1e2b7c")


def _again(api: Api, gid: uuid.UUID, player: str, same: bool) -> tuple[Current, int | None]:
    """The answer to a retried creation or join: the game as it is now, with the caller's seat."""
    if not same:
        raise Problem("idempotency-key-reused", "this Idempotency-Key was used with another request")
    cur = load(api, gid)
    return cur, cur.game.seat_of(player)


def create_game(api: Api, player: tuple[str, str], ruleset_name: str, seats: int, options: Mapping[str, Any],
                name: str | None, take_seat: bool, entropy: bytes | None, idem_key: str | None = None,
                body: Any = None) -> tuple[Current, int | None]:
    try:
        rs = rules.get(ruleset_name)
    except (KeyError, ImportError) as exc:
        raise Problem("validation", f"unknown ruleset {ruleset_name!r}",
                      errors={"ruleset": [f"must be one of {available()}"]}) from exc
    if not rs.min_players <= seats <= rs.max_players:
        raise Problem("validation", f"{ruleset_name} is for {rs.min_players}-{rs.max_players} players",
                      errors={"seats": [f"must be between {rs.min_players} and {rs.max_players}"]})
    try:
        resolved = rs.resolve_options(dict(options), seats)
    except InvalidOptions as exc:
        raise Problem("invalid-options", str(exc), errors={k: [v] for k, v in exc.errors.items()}) from exc
    pid, pname = player
    rhash = None
    if idem_key:
        gid = uuid.uuid5(_CREATED_NS, f"{pid}\n{idem_key}")
        rhash = request_hash("POST", "/v1/games", pid, body)
        done = game_index.processed(api.db, gid, idem_key)
        if done is not None:
            return _again(api, gid, pid, done[0] == rhash)
    else:
        gid = uuid.uuid4()
    # a retry racing the first request stores no second secret: both commit to the stored one
    secret = game_index.put_secret(api.db, gid, fairness.new_secret())
    at = api.now()
    opened = {"ruleset": ruleset_name, "seats": seats, "options": resolved, "name": name or f"{rs.title} game",
              "creator": pid, "secret_commitment": fairness.secret_commitment(secret)}
    events = [NewEvent("GameOpened", opened, _meta(api, at, None, pid))]
    seat = None
    if take_seat:
        seat = 0
        taken = {"seat": 0, "player_id": pid, "name": pname, "entropy": (entropy or fairness.new_entropy()).hex()}
        events.append(NewEvent("SeatTaken", taken, _meta(api, at, 0, pid)))
    game = fold_records(None, [_Pending(e, stream_id=gid) for e in events])
    assert game is not None
    if game.free_seat() is None:  # never: a game has at least two seats
        raise Problem("internal", "a game cannot start at creation")
    empty = Current(game, 0, b"\0" * 32)
    try:
        result = _append(api, empty, game, events, command_id=idem_key, request_hash=rhash)
    except (ConcurrencyError, IdempotencyConflict):  # a retry with another body won the race
        raise Problem("idempotency-key-reused", "this Idempotency-Key was used with another request") from None
    api._rulesets.put(gid, ruleset_name)
    if result.duplicate:
        return _again(api, gid, pid, True)
    return Current(game, result.version, result.head), seat


@dataclass(frozen=True, slots=True)
class _Pending:
    """An event not read back from the store, in the shape fold_records and present_record read."""

    event: NewEvent
    version: int = 0
    stream_id: uuid.UUID | None = None
    typed: Any = None  # the ruleset's event object it was encoded from, if any

    @property
    def type(self) -> str:
        return self.event.type

    @property
    def data(self) -> Any:
        return self.event.data

    @property
    def metadata(self) -> Any:
        return self.event.metadata


def join_game(api: Api, gid: uuid.UUID, player: tuple[str, str], entropy: bytes | None,
              idem_key: str | None = None, body: Any = None) -> tuple[Current, int | None]:
    pid, pname = player
    rhash = None
    if idem_key:
        rhash = request_hash("POST", f"/v1/games/{gid}/join", pid, body)
        done = game_index.processed(api.db, gid, idem_key)
        if done is not None:
            return _again(api, gid, pid, done[0] == rhash)
    for _ in range(MAX_TRIES):
        cur = load(api, gid)
        game = cur.game
        if game.seat_of(pid) is not None:
            raise Problem("already-seated", f"you already hold seat {game.seat_of(pid)}", seat=game.seat_of(pid))
        seat = game.free_seat()
        if seat is None or game.rules is not None:
            raise Problem("game-not-open", "every seat of this game is taken")
        at = api.now()
        taken = {"seat": seat, "player_id": pid, "name": pname, "entropy": (entropy or fairness.new_entropy()).hex()}
        events = [NewEvent("SeatTaken", taken, _meta(api, at, seat, pid))]
        game = fold_records(game, [_Pending(events[0], stream_id=gid)])
        assert game is not None
        if game.free_seat() is None:  # the last seat: deal
            rs = rules.get(game.ruleset)
            key = _key(api, game)
            for ev in rs.start(len(game.seats), game.options, key):
                events.append(NewEvent(type(ev).__name__, codec.to_json(ev), _meta(api, at, None, None)))
            game = fold_records(game, [_Pending(e, stream_id=gid) for e in events[1:]])
            assert game is not None
        try:
            result = _append(api, cur, game, events, command_id=idem_key, request_hash=rhash)
        except ConcurrencyError:
            continue
        except IdempotencyConflict:
            raise Problem("idempotency-key-reused", "this Idempotency-Key was used with another request") from None
        if result.duplicate:
            return _again(api, gid, pid, True)
        return Current(game, result.version, result.head), seat
    raise Problem("conflict", "the game changed too often; try again")


# ---------------------------------------------------------------- commands

def request_hash(method: str, path: str, player: str, body: Any) -> str:
    return hashlib.sha256(canonical([method, path, player, body]).encode("utf-8", "surrogatepass")).hexdigest()


def rule_problem(exc: RuleError, legal: list[Any] | None) -> Problem:
    slug = _RULE_SLUGS.get(exc.code) or ("invalid-command" if exc.status == 422 else "illegal-command")
    status = exc.status if exc.status in (409, 422) else 409
    extra: dict[str, Any] = {"code": exc.code}
    if status == 409:
        extra["legal_actions"] = legal or []
    return Problem(slug, exc.detail, status=status, **extra)


def _response(api: Api, gid: uuid.UUID, game: Game, seat: int, first: int, last: int,
              records: list[Any] | None = None, head: bytes | None = None) -> dict[str, Any]:
    rs = rules.get(game.ruleset)
    if records is None:
        records = api.store.read(gid, first - 1, upto=last)
    shown = [p for p in (present_record(rs, r, seat) for r in records) if p is not None]
    if head is None:
        head = records[-1].hash if records else b"\0" * 32
    return {"version": last, "chain_head": head.hex(), "events": shown,
            "view": view(game, last, head, seat, api.timeouts)}


def replay_response(api: Api, gid: uuid.UUID, seat: int, first: int, last: int) -> dict[str, Any]:
    """The first response to an already processed command, rebuilt from its events."""
    return _response(api, gid, load_at(api, gid, last), seat, first, last)


def run_command(api: Api, gid: uuid.UUID, player: str, body: Any, if_match: int | None,
                idem_key: str | None, path: str) -> dict[str, Any]:
    rhash = request_hash("POST", path, player, body) if idem_key else None
    if idem_key:
        done = game_index.processed(api.db, gid, idem_key)
        if done is not None:
            return _duplicate(api, gid, player, done[0] == rhash, done[1], done[2])
    # optimistic: decide on this worker's latest copy without reading the store; the append
    # checks the version, and a stale copy (ConcurrencyError) or any refusal decided on an
    # unverified copy is decided again on the stored head
    optimistic = _cached(api, gid)
    for _ in range(MAX_TRIES):
        verified = optimistic is None
        cur = load(api, gid) if verified else optimistic
        optimistic = None
        assert cur is not None
        try:
            game, seat, rs, produced = _decide(api, cur, player, body, if_match)
        except Problem:
            if verified:
                raise
            continue
        at = api.now()
        meta = _meta(api, at, seat, player, body, idem_key)
        new, events = _outcome(api, game, rs, [(e, meta) for e in produced], at)
        try:
            result = _append(api, cur, new, events, command_id=idem_key, request_hash=rhash)
        except ConcurrencyError:
            if if_match is not None:
                raise Problem("precondition-failed", "the game moved on", version=cur.version + 1) from None
            continue
        except IdempotencyConflict:
            raise Problem("idempotency-key-reused", "this Idempotency-Key was used with another request") from None
        if result.duplicate:
            return _duplicate(api, gid, player, True, result.first_version, result.last_version)
        typed = [*produced, *[None] * (len(events) - len(produced))]  # then the service's own events
        records = [_Pending(ev, cur.version + i + 1, typed=t) for i, (ev, t) in enumerate(zip(events, typed))]
        return _response(api, gid, new, seat, result.first_version, result.last_version, records, result.head)
    raise Problem("conflict", "the game changed too often; try again")


def _outcome(api: Api, game: Game, rs: Any, produced: list[tuple[Any, dict[str, Any]]], at: str
             ) -> tuple[Game, list[NewEvent]]:
    """The game after the ruleset's events (each with its command's metadata), folded one by
    one as a cold load would fold them, and the events to append: the server's secret is
    revealed with the last event of a game."""
    events = [NewEvent(type(e).__name__, codec.to_json(e), meta) for e, meta in produced]
    new = game
    for e, _ in produced:
        new = advance(new, rs, rs.evolve(new.rules, e), at)
    if rs.is_terminal(new.rules) and game.secret is None:
        secret = game_index.get_secret(api.db, uuid.UUID(game.id))
        assert secret is not None
        events.append(NewEvent("SecretRevealed", {"secret": secret.hex()}, _meta(api, at, None, None)))
        new = replace(new, secret=secret.hex())
    return new, events


def expire_deadline(api: Api, gid: uuid.UUID) -> int:
    """Send the ruleset's system commands of a game whose deadline has passed (RULES §2.11);
    returns how many were applied (0: not due, or a player moved first)."""
    for _ in range(MAX_TRIES):
        cur = load(api, gid)
        game = cur.game
        due = game.deadline
        if game.status != "active" or due is None or deadline_at(due, api.timeouts) > api.clock():
            return 0
        rs = rules.get(game.ruleset)
        key = _key(api, game)
        at = api.now()
        state, produced = game.rules, []
        for command in due.commands:  # several only in an initial peek: one per seat
            try:
                events = rs.decide(state, None, command, key)
            except RuleError:
                continue  # resolved by an earlier one of them
            meta = _meta(api, at, None, None, {"type": type(command).__name__, **codec.to_json(command)})
            for e in events:
                state = rs.evolve(state, e)
                produced.append((e, meta))
        if not produced:
            return 0
        new, events = _outcome(api, game, rs, produced, at)
        try:
            _append(api, cur, new, events)
        except ConcurrencyError:
            continue  # a player moved meanwhile: look again
        return len({id(meta) for _, meta in produced})
    return 0


def _decide(api: Api, cur: Current, player: str, body: Any, if_match: int | None) -> tuple[Game, int, Any, list[Any]]:
    game = cur.game
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game; spectators cannot send commands")
    if if_match is not None and if_match != cur.version:
        raise Problem("precondition-failed", f"the game is at version {cur.version}, not {if_match}",
                      version=cur.version)
    status = game.status
    if status != "active":
        raise Problem("game-not-active", f"the game is {status}")
    rs = rules.get(game.ruleset)
    try:
        command = rs.parse_command(body)
        produced = rs.decide(game.rules, seat, command, _key(api, game))
    except RuleError as exc:
        legal = rs.legal_actions(game.rules, seat) if exc.status != 422 else None
        raise rule_problem(exc, legal) from exc
    return game, seat, rs, produced


def _duplicate(api: Api, gid: uuid.UUID, player: str, same: bool, first: int, last: int) -> dict[str, Any]:
    if not same:
        raise Problem("idempotency-key-reused", "this Idempotency-Key was used with another request")
    game = load_at(api, gid, last)
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "you have no seat in this game")
    return _response(api, gid, game, seat, first, last)


# ---------------------------------------------------------------- reading

def events_page(api: Api, gid: uuid.UUID, seat: int | None, after: int, limit: int,
                ruleset_name: str) -> tuple[dict[str, Any], bool]:
    """Events after ``after`` as ``seat`` may see them, and whether any event was read."""
    info = api.store.head(gid)
    if info is None:
        raise Problem("not-found", f"no game {gid}")
    version, head = info
    if version <= after:
        return {"events": [], "next_after": after, "version": version, "chain_head": head.hex(),
                "more": False}, False
    records = api.store.read(gid, after, limit=limit, upto=version)
    rs = rules.get(ruleset_name)
    shown = [p for p in (present_record(rs, r, seat) for r in records) if p is not None]
    last = records[-1]
    return {"events": shown, "next_after": last.version, "version": version,
            "chain_head": last.hash.hex(), "more": last.version < version}, True


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


def ruleset_of(api: Api, gid: uuid.UUID) -> str:
    name = _ruleset_of(api, gid)
    if name is None:
        raise Problem("not-found", f"no game {gid}")
    return name


__all__ = ["Api", "SeatInfo", "available", "create_game", "join_game", "run_command", "events_page"]
