"""The game repository: the one way the use cases load a game and append to it.

* **load**: this worker's cached copy plus the events after it, else the snapshot (if this
  code made it) plus the events after it, else the whole log; one query in each case.
* **append**: optimistic (version-checked in the store's one-call append), with the game
  index's update (:func:`index_effect`, the row ``service.model.views.listed`` computes),
  the notifications and the snapshot in the same statement, and a wake-up hint after commit.
* **update**: load → decide → append, retried when the copy was stale, and idempotent by
  the client's ``Idempotency-Key`` (a retried request gets the first answer's versions).

Use cases hand :meth:`GameRepository.update` a ``decide`` function and present what it
returns; they never see the cache, the snapshot or the retries. The game index is a
projection of the log: :func:`rebuild_index` rebuilds it from the log alone.
"""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from events import game_index, tlog
from events.canonical import canonical
from events.db import Database
from events.errors import ConcurrencyError, IdempotencyConflict, InvalidData
from events.notifications import Item, effect
from events.store import AppendResult, EventStore, NewEvent, Snapshot
from service.adapters import ratings
from service.adapters.transparency import Transparency, new_hashes
from service.adapters.wakeups import Live
from service.model import fairness, notifications, snapshots, tournament, views
from service.model.caches import Lru
from service.model.game import SERVICE_EVENTS, Game, Timeouts, fold_records
from service.model.notifications import Notice
from service.model.problems import Problem

MAX_TRIES = 5
GAME_CACHE_SIZE = 4096  # games per worker (a folded Corte game is a few KB)
# versions between snapshots: a cold load (a worker that has not seen the game) reads the
# snapshot and folds at most SNAPSHOT_EVERY - 1 events; warm reads never need one. Writing
# one with every append cost an encoding and a ~3 KB row version per command.
SNAPSHOT_EVERY = 16
GENESIS = b"\0" * 32


@dataclass(frozen=True, slots=True)
class Current:
    """A game at a version of its stream, with the chain head there."""

    game: Game
    version: int
    head: bytes


@dataclass(frozen=True, slots=True)
class Pending:
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


@dataclass(frozen=True, slots=True)
class Decision:
    """What a use case decided on a game: the game after it, the events that take it there,
    and (aligned with them) the ruleset's event objects they encode, ``None`` for the service's."""

    game: Game
    events: list[NewEvent]
    typed: Sequence[Any] = ()
    timed_out: tuple[int, ...] = ()  # seats whose automatic action the server played


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A client's ``Idempotency-Key`` and the hash of the request it came with. Keys belong to
    their player: two players' equal keys in one game never meet (``scoped``)."""

    key: str
    request_hash: str

    @staticmethod
    def of_request(player: str, key: str | None, method: str, path: str, body: Any) -> Idempotency | None:
        """The player's key for this request (``None`` without a key): two requests under
        one key are the same request when method, path, player and body are."""
        if not key:
            return None
        digest = hashlib.sha256(canonical([method, path, player, body]).encode("utf-8", "surrogatepass")).hexdigest()
        return Idempotency(f"{player}:{key}", digest)


@dataclass(frozen=True, slots=True)
class Appended:
    """The result of an update: the game after it (``None`` for a replayed duplicate, which
    the caller answers from the stored events), the versions written and the new records."""

    current: Current | None
    first: int
    last: int
    records: tuple[Pending, ...] = ()
    decided_on: Current | None = None
    # the signed checkpoint of the game's tree at ``last`` (docs/fairness.md)
    checkpoint: str | None = None

    @property
    def duplicate(self) -> bool:
        return self.current is None


def pending(events: Sequence[NewEvent], stream_id: uuid.UUID, first: int = 0,
            typed: Sequence[Any] = ()) -> list[Pending]:
    """New events as records numbered from ``first``, each with its typed object if known."""
    objs = [*typed, *[None] * (len(events) - len(typed))]
    return [Pending(e, first + i if first else 0, stream_id, t) for i, (e, t) in enumerate(zip(events, objs))]


def folded(game: Game, events: list[NewEvent], gid: uuid.UUID) -> Game:
    """``game`` with new ``events`` folded onto it, as a load would fold them once stored."""
    out = fold_records(game, pending(events, gid))
    assert out is not None
    return out


def _item(n: Notice) -> Item:
    return Item(n.player_id, n.kind, n.game_id, n.version, n.seats, n.data, n.dedup_key)


class GameRepository:
    """Loads and appends games for one worker process, with its cache of the latest games."""

    def __init__(self, store: EventStore, db: Database, live: Live, timeouts: Timeouts,
                 transparency: Transparency) -> None:
        self.store, self.db, self.live, self.timeouts = store, db, live, timeouts
        self.transparency = transparency
        # game -> Current: the latest game this worker folded. Shared between requests as
        # is: games and ruleset states are never mutated (tests/domain/test_state_immutability.py
        # holds every ruleset to it). Validated by version on every read (one query);
        # commands append optimistically on it.
        self._games = Lru(GAME_CACHE_SIZE)
        self._rulesets = Lru(100_000)  # game -> ruleset name (immutable)
        self._keys = Lru(100_000)  # game -> chance key (immutable once dealt)
        # called after the append that ends a tournament's table (create_app wires the
        # tournaments' use case here: its round may be over; docs/tournaments.md)
        self.on_table_over: Callable[[Game], None] | None = None

    # ------------------------------------------------------------ loading

    def load(self, gid: uuid.UUID) -> Current:
        """The game at its head, in one query (see the module docstring); 404 if there is none."""
        hit: Current | None = self._games.get_(gid)
        loaded = self.store.load(gid, snapshots.fingerprint(), since=None if hit is None else hit.version)
        if loaded is not None and hit is not None and loaded.snapshot is None:
            if loaded.version >= hit.version:
                game = fold_records(hit.game, loaded.events)
                assert game is not None
                cur = Current(game, loaded.version, loaded.head)
                if loaded.events:
                    self._remember(gid, cur)
                    self._grown(gid, loaded.events)
                return cur
            self._games.drop(gid)  # the stream is behind the cache (never, short of a restore)
            loaded = self.store.load(gid, snapshots.fingerprint())
        if loaded is None or loaded.kind != "game":
            raise Problem("not-found", f"no game {gid}")
        game, records = None, loaded.events
        if loaded.snapshot is not None:
            try:
                game = snapshots.loads(loaded.snapshot.state)
            except Exception:  # a snapshot this code cannot read is rebuilt from the log
                game, records = None, self.store.read(gid, 0, upto=loaded.version)
        game = fold_records(game, records)
        assert game is not None
        cur = Current(game, loaded.version, loaded.head)
        self._remember(gid, cur)
        self._grown(gid, records)
        self._rulesets.put(gid, game.ruleset)
        return cur

    def seat_of(self, gid: uuid.UUID, player: str) -> int | None:
        """The player's seat in the game. Once every seat is taken a player's seat never
        changes, so this worker's cached copy answers without a query (a waiter asks on
        every long-poll)."""
        hit: Current | None = self._games.get_(gid)
        if hit is None or hit.game.rules is None:
            hit = self.load(gid)
        return hit.game.seat_of(player)

    def cached_version(self, gid: uuid.UUID) -> int | None:
        """The version of this worker's copy of the game (no query), ``None`` if it has none:
        the stream is at least there."""
        hit: Current | None = self._games.get_(gid)
        return None if hit is None else hit.version

    def load_at(self, gid: uuid.UUID, version: int) -> Game:
        """The game as it was at ``version`` (folded from the log)."""
        game = fold_records(None, self.store.read(gid, 0, upto=version))
        if game is None:
            raise Problem("not-found", f"no game {gid}")
        return game

    def ruleset_of(self, gid: uuid.UUID) -> str:
        """The game's ruleset (immutable: read once per worker); 404 if there is no game."""
        name = self._rulesets.get_(gid)
        if name is None:
            first = self.store.read(gid, 0, limit=1)
            if not first or first[0].type != "GameOpened":
                raise Problem("not-found", f"no game {gid}")
            name = first[0].data["ruleset"]
            self._rulesets.put(gid, name)
        return name  # type: ignore[no-any-return]

    def secret(self, gid: uuid.UUID) -> bytes:
        secret = game_index.get_secret(self.db, gid)
        if secret is None:
            raise Problem("internal", "the game's secret is missing")
        return secret

    def chance_key(self, game: Game) -> bytes:
        """The key of the game's deals (the server's secret and every seat's entropy, or a
        duplicate board's seed)."""
        key = self._keys.get_(game.id)
        if key is None and game.board is not None and game.tournament is not None:
            # a table of a duplicate board: the board's seed alone (docs/fairness.md)
            key = fairness.board_key(self.secret(tournament.board_id(*game.tournament[:2])))
            self._keys.put(game.id, key)
        elif key is None:
            entropy = [bytes.fromhex(s.entropy) for s in game.seats if s is not None]
            key = fairness.game_key(self.secret(uuid.UUID(game.id)), entropy)
            self._keys.put(game.id, key)
        return key  # type: ignore[no-any-return]

    def _grown(self, gid: uuid.UUID, records: Sequence[Any]) -> None:
        """The game's tree of chain hashes grows by the events a load read (no query later
        for the checkpoint of the answer, or a proof; a tree that is not just before them is left)."""
        if records:
            self.transparency.grown(gid, records[0].version, [r.hash for r in records])

    def _remember(self, gid: uuid.UUID, cur: Current) -> None:
        old = self._games.get_(gid)
        if old is None or old.version < cur.version:  # never replace a newer copy by an older one
            self._games.put(gid, cur)

    # ------------------------------------------------------------ appending

    def append(self, cur: Current, decision: Decision, idem: Idempotency | None = None) -> Appended | None:
        """Append ``decision`` if the stream is still at ``cur``'s version; ``None`` if it moved on."""
        game, events = decision.game, decision.events
        version = cur.version + len(events)
        snap = None
        # a snapshot when the append crosses a multiple of SNAPSHOT_EVERY (and on the first and
        # the final append): warm reads fold onto the worker's cache and never need one
        if cur.version == 0 or version // SNAPSHOT_EVERY != cur.version // SNAPSHOT_EVERY or game.status == "finished":
            snap = Snapshot(version, snapshots.fingerprint(), snapshots.dumps(game))
        gid = uuid.UUID(game.id)
        before = cur.game if cur.version else None
        news = notifications.of_append(before, game, version, self.timeouts, decision.timed_out)
        # a rated game's end: its ratings' update comes before the notifications (its row locks
        # are taken first), and each game_over says the player's change
        rated = ratings.ending(self.db, before, game) if game.status == "finished" else None
        if rated is not None:
            news = ratings.told(news, rated)
        effects = [index_effect(game, version, events), *([rated.effect] if rated else [])]
        if news:
            effects.append(effect([_item(n) for n in news]))
        if game.status == "finished" and (cur.version == 0 or cur.game.status != "finished"):
            # the final checkpoint joins the log of finished games in this very append; last of
            # the effects, so the log's one lock (sql/040) is the last one the append takes
            final = self.transparency.final_checkpoint(gid, cur.version, cur.head, events)
            effects.append(tlog.finished_effect(gid, final))
        try:
            result: AppendResult = self.store.append(
                gid, cur.version, events, snapshot=snap, notify=False, effects=effects,
                command_id=idem.key if idem else None, request_hash=idem.request_hash if idem else None)
        except ConcurrencyError:  # the stream moved on, or a player's rating did (RatingsMoved)
            return None
        except IdempotencyConflict:
            raise _key_reused() from None
        except InvalidData as exc:
            raise Problem("validation", f"the request cannot be stored: {exc}") from exc
        if result.duplicate:
            return Appended(None, result.first_version, result.last_version)
        # the store's head is the last event's chain hash: a one-event append's hash costs no
        # second encoding of the event
        hashes = [result.head] if len(events) == 1 else new_hashes(cur.head, cur.version + 1, events)
        self.transparency.grown(gid, cur.version + 1, hashes)
        after = Current(game, result.version, result.head)
        self._remember(gid, after)
        self._rulesets.put(gid, game.ruleset)
        self.live.hint(game.id, result.version)
        for player in notifications.recipients(news):
            self.live.hint(notifications.wake_key(player), 0)
        if (game.tournament is not None and self.on_table_over is not None and game.status in notifications.ENDED
                and (before is None or before.status not in notifications.ENDED)):
            self.on_table_over(game)
        records = pending(events, gid, cur.version + 1, decision.typed)
        return Appended(after, result.first_version, result.last_version, tuple(records), cur,
                        self.transparency.game_checkpoint(gid, result.version))

    def create(self, decision: Decision, idem: Idempotency | None = None) -> Appended:
        """Append the first events of a new game's stream."""
        appended = self.append(Current(decision.game, 0, GENESIS), decision, idem)
        if appended is None:  # a retry with another body won the race for the same stream
            raise _key_reused()
        return appended

    def update(self, gid: uuid.UUID, decide: Callable[[Current], Decision | None],
               idem: Idempotency | None = None, *, optimistic: bool = False) -> Appended | None:
        """load → decide → append, until the append lands on the copy it was decided on.

        ``optimistic``: decide first on this worker's cached copy without reading the store;
        the append checks the version, and a stale copy or any refusal decided on an
        unverified copy is decided again on the stored head. ``decide`` returning ``None``
        means there is nothing to do (``update`` returns ``None``).
        """
        # No look-up of the key first: a repeated request is decided again and then either
        # refused (its first answer moved the game on: the refusal looks for the key) or
        # appended, and the append finds the key under the game's row lock. So a duplicate in
        # flight beside the first waits for it and gets the first answer, and a new command
        # costs no extra query.
        cur: Current | None = self._games.get_(gid) if optimistic else None
        for _ in range(MAX_TRIES):
            verified = cur is None
            if cur is None:
                cur = self.load(gid)
            try:
                decision = decide(cur)
            except Problem:
                if not verified:
                    cur = None
                    continue
                done = self.processed(gid, idem) if idem is not None else None
                if done is not None:
                    return done  # refused because it was done already: the first answer
                raise
            if decision is None:
                return None
            appended = self.append(cur, decision, idem)
            if appended is not None:
                return appended
            cur = None
        raise Problem("conflict", "the game changed too often; try again")

    def processed(self, gid: uuid.UUID, idem: Idempotency) -> Appended | None:
        """The versions a key's first request wrote, if it was processed; 422 if with another body."""
        done = game_index.processed(self.db, gid, idem.key)
        if done is None:
            return None
        if done[0] != idem.request_hash:
            raise _key_reused()
        return Appended(None, done[1], done[2])


def _key_reused() -> Problem:
    return Problem("idempotency-key-reused", "this Idempotency-Key was used with another request")


# ------------------------------------------------------------ the game index (a projection of the log)


def index_row(game: Game, version: int, full: bool = True) -> game_index.IndexRow:
    """The game's row in the index (``full=False``: without the seats, which a command never changes)."""
    return game_index.IndexRow(**views.listed(game, version, full))


def index_effect(game: Game, version: int, events: Sequence[NewEvent]) -> dict[str, Any]:
    """The game index's update in the append: the whole row when a service event (seats,
    links, visibility) is among the events, else only what a command changes."""
    if any(e.type in SERVICE_EVENTS for e in events):
        return game_index.index_effect(index_row(game, version))
    return game_index.progress_effect(index_row(game, version, full=False))


def rebuild_index(store: EventStore, db: Database) -> int:
    """Rebuild the game index from the event log alone, as the owner (``db``: a pool of the
    owner's, who may write the tables); returns the number of games."""
    game_index.clear(db)
    ids = game_index.game_stream_ids(db)
    for gid in ids:
        records = store.read(gid)
        game = fold_records(None, records)
        if game is not None:
            game_index.upsert(db, index_row(game, records[-1].version))
    return len(ids)
