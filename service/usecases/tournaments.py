"""Tournaments (docs/tournaments.md): opening, joining, leaving and starting one; forming each
round when the last table of the one before has ended; the sweep that starts them at their
time and catches up whatever a crash left half done.

A tournament is its own stream; every change is an optimistic append to it (version-checked),
so two workers that both see a round end form the next round once: the second append is
stale, and the second worker, reading again, finds the round formed. A round's tables are
games with ids derived from the tournament, the round and the table; they are created after
the round's ``RoundPaired`` is stored, each by an append that succeeds only once, so a crash
between the two leaves games that the next look (the game-ending append's, or the sweep's)
creates, and never two of them.
"""
from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from domain import rules as rulesets
from domain.tournaments import TableResult
from events import game_index, ratings as rating_store, tournaments as store
from events.errors import ConcurrencyError, StoreError
from events.store import NewEvent
from service.adapters.repository import GENESIS, Current, Decision, folded, pending
from service.model import fairness, ratings, tournament as model
from service.model.caches import Lru
from service.model.game import Game, fold_records, iso, metadata
from service.model.notifications import ENDED
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies
from service.usecases.lobby import deal, resolve_rules, seat_taken, time_control

log = logging.getLogger("facedown.tournaments")
MAX_TRIES = 8
_CREATED_NS = uuid.UUID("a4e6f1b2-7c3d-4e5f-8a9b-0c1d2e3f4a5b")  # uuid5(player, Idempotency-Key)
_LINKS = Lru(100_000)  # game -> (tournament, round) of a duplicate board's table, or () (immutable)
_OVER = Lru(100_000)  # (tournament, round) -> True once the round is over (immutable)


def load(deps: Dependencies, tid: uuid.UUID) -> tuple[model.Tournament, int]:
    """The tournament folded from its stream, with its version; 404 if there is none."""
    records = deps.store.read(tid)
    if not records or records[0].type != "TournamentOpened":
        raise Problem("not-found", f"no tournament {tid}")
    t = model.fold(records)
    assert t is not None
    return t, records[-1].version


def _after(t: model.Tournament | None, events: list[model.Event], at: str, tid: str) -> model.Tournament:
    for type_, data in events:
        t = model.evolve(t, type_, data, at, tid)
    assert t is not None
    return t


def _append(deps: Dependencies, t: model.Tournament | None, version: int, events: list[model.Event],
            by: str | None, tid: uuid.UUID) -> model.Tournament:
    """Append ``events`` at ``version`` with the read model's row; ConcurrencyError if stale."""
    at = deps.now()
    after = _after(t, events, at, str(tid))
    new = [NewEvent(type_, data, metadata(at, None, by)) for type_, data in events]
    deps.store.append(tid, version, new, kind=model.KIND,
                      effects=[store.effect(version + len(new), model.listed(after))])
    return after


def _update(deps: Dependencies, tid: uuid.UUID, decide: Callable[[model.Tournament], list[model.Event]],
            by: str | None) -> model.Tournament:
    """load → decide → append, again on a fresh copy while another append got there first."""
    for _ in range(MAX_TRIES):
        t, version = load(deps, tid)
        events = decide(t)
        if not events:
            return t
        try:
            return _append(deps, t, version, events, by, tid)
        except ConcurrencyError:
            continue
    raise Problem("conflict", "the tournament changed too often; try again")


# ------------------------------------------------------------------ what players do


def create(deps: Dependencies, player: tuple[str, str], data: Mapping[str, Any],
           idem_key: str | None = None) -> model.Tournament:
    """Open a tournament (its creator joins it unless ``join`` is false). With an
    ``Idempotency-Key`` its id is derived from the player and the key: a retry finds it."""
    seats = int(data["seats_per_table"])
    options = resolve_rules(data["ruleset"], seats, data.get("options") or {})
    if data["format"] == "swiss" and not data.get("rounds"):
        raise Problem("validation", "a Swiss tournament needs its number of rounds",
                      errors={"rounds": ["required for a Swiss tournament"]})
    if data["max_players"] < seats:
        raise Problem("validation", "fewer players than one table seats",
                      errors={"max_players": [f"must be at least seats_per_table ({seats})"]})
    raw_tc = data.get("time_control", {})
    tc = time_control(deps, raw_tc)
    starts_at = data.get("starts_at")
    opened = {"name": data["name"], "ruleset": data["ruleset"], "options": options, "format": data["format"],
              "seats_per_table": seats, "rounds": data.get("rounds"), "time_control": tc.to_json() if tc else None,
              "duplicate": bool(data.get("duplicate")), "max_players": int(data["max_players"]),
              "starts_at": iso(starts_at) if isinstance(starts_at, datetime) else starts_at, "creator": player[0]}
    events: list[model.Event] = [("TournamentOpened", opened)]
    if data.get("join", True):
        events.append(("PlayerJoined", {"player_id": player[0], "name": player[1]}))
    tid = uuid.uuid5(_CREATED_NS, f"{player[0]}\n{idem_key}") if idem_key else uuid.uuid4()
    try:
        return _append(deps, None, 0, events, player[0], tid)
    except ConcurrencyError:  # the first request with this key made it
        return load(deps, tid)[0]


def join(deps: Dependencies, tid: uuid.UUID, player: tuple[str, str]) -> model.Tournament:
    """Join an open tournament; the join that fills it starts it."""
    t = _update(deps, tid, lambda t: model.join(t, player[0], player[1]), player[0])
    if len(t.players) >= t.max_players:
        try:
            t = start(deps, tid, None, "full")
        except (Problem, StoreError) as exc:  # the join stands; the sweep starts a full tournament
            log.warning("tournament %s full but not started: %s", tid, exc)
    return t


def leave(deps: Dependencies, tid: uuid.UUID, player: str) -> model.Tournament:
    return _update(deps, tid, lambda t: model.leave(t, player), player)


def start(deps: Dependencies, tid: uuid.UUID, by: str | None, how: str) -> model.Tournament:
    """Start it (``how``: creator, starts_at, full) and form its first round."""
    def decide(t: model.Tournament) -> list[model.Event]:
        begun = model.start(t, by, how)
        return [*begun, form(deps, _after(t, begun, t.updated_at, t.id), 1)]

    t = _update(deps, tid, decide, by)
    tables(deps, t)
    return t


# ------------------------------------------------------------------ rounds


def player_ratings(deps: Dependencies, t: model.Tournament) -> dict[str, float]:
    """Each player's rating in the tournament's ruleset (mu - 3 sigma; a newcomer's default)."""
    found = rating_store.current(deps.db, t.ruleset, t.ids)
    return {p: ratings.Rating(found[p][0], found[p][1]).rating if p in found else ratings.Rating().rating for p in t.ids}


def form(deps: Dependencies, t: model.Tournament, n: int) -> model.Event:
    """Round ``n``'s ``RoundPaired``: its tables and, for a duplicate tournament, the commitment
    to its board's seed (drawn once and kept: whoever forms the round again finds the same)."""
    plan = model.pairing(t, n, player_ratings(deps, t))
    commitment = None
    if t.duplicate:
        seed = game_index.put_secret(deps.db, model.board_id(t.id, n), fairness.new_secret())
        commitment = fairness.secret_commitment(seed)
    return model.paired(t, n, plan, commitment)


def tables(deps: Dependencies, t: model.Tournament) -> int:
    """Create the current round's games that do not exist yet; returns how many it created."""
    r = t.current
    if t.status != "running" or r is None or r.results is not None:
        return 0
    made = 0
    for i, table in enumerate(r.tables):
        gid = uuid.UUID(table.game_id)
        if deps.store.head(gid) is None:
            made += _open_table(deps, t, r, i, gid)
    return made


def _open_table(deps: Dependencies, t: model.Tournament, r: model.Round, i: int, gid: uuid.UUID) -> int:
    """One table: opened, every seat taken in the pairing's order, dealt, in one append (which
    also tells each seat ``tournament_round``). 0 if another worker created it first."""
    table = r.tables[i]
    names = dict(t.players)
    secret = game_index.put_secret(deps.db, gid, fairness.new_secret())
    at = deps.now()
    opened: dict[str, Any] = {
        "ruleset": t.ruleset, "seats": len(table.players), "options": resolve_rules(t.ruleset, len(table.players),
                                                                                    t.options),
        "name": f"{t.name} · round {r.n} · table {i + 1}", "creator": t.creator,
        "secret_commitment": fairness.secret_commitment(secret), "time_control": t.time_control,
        # a board in play is its seats' alone: out of the public lists, and guarded (board_access)
        "visibility": "unlisted" if t.duplicate else "public",
        "timeouts_before_vote": deps.timeouts.before_vote,
        "tournament": {"id": t.id, "round": r.n, "table": i}}
    if t.duplicate:
        opened["board"] = {"commitment": r.commitment}
    events = [NewEvent("GameOpened", opened, metadata(at, None, None))]
    events += [seat_taken(deps, seat, (p, names.get(p, "")), None, at) for seat, p in enumerate(table.players)]
    game = fold_records(None, pending(events, gid))
    assert game is not None
    dealt = deal(deps, game, at)
    game = folded(game, dealt, gid)
    appended = deps.games.append(Current(game, 0, GENESIS), Decision(game, [*events, *dealt]))
    return 0 if appended is None else 1


def _result(game: Game) -> TableResult:
    """A table's result: each seat's rank as the ratings rank it (winners, then scores, those
    gone last) and its final score."""
    scores = rulesets.get(game.ruleset).scores(game.rules) if game.rules is not None else (0,) * len(game.seats)
    players = tuple(s.player_id if s is not None else "" for s in game.seats)
    return TableResult(players, tuple(ratings.ranks(game)), tuple(int(x) for x in scores))


def progress(deps: Dependencies, tid: uuid.UUID) -> model.Tournament:
    """If every table of the current round has ended: the round's results (and its board's
    seed) and the next round, or the tournament's end, in one append; then the new tables."""
    for _ in range(MAX_TRIES):
        t, version = load(deps, tid)
        r = t.current
        if t.status != "running" or r is None:
            return t
        if r.results is None:
            tables(deps, t)
            games = [deps.games.load(uuid.UUID(x.game_id)).game for x in r.tables]
            if any(g.status not in ENDED for g in games):
                return t
            seed = deps.games.secret(model.board_id(t.id, r.n)).hex() if t.duplicate else None
            events = [model.ended(r.n, [(x.game_id, _result(g)) for x, g in zip(r.tables, games)], seed)]
        else:  # ended with nothing after it (never written so: the two go in one append)
            events = []
        done = _after(t, events, t.updated_at, t.id)
        if r.n >= (t.round_count or 0):
            events.append(("TournamentFinished", {}))
        else:
            events.append(form(deps, done, r.n + 1))
        try:
            t = _append(deps, t, version, events, None, tid)
        except ConcurrencyError:
            continue
        tables(deps, t)
        return t
    raise Problem("conflict", "the tournament changed too often; try again")


def table_over(deps: Dependencies, game: Game) -> None:
    """A table's game has just ended (called after the append that ended it): perhaps its
    round is over. A failure here loses nothing: the sweep looks again."""
    if game.tournament is None:
        return
    try:
        progress(deps, uuid.UUID(game.tournament[0]))
    except (Problem, StoreError) as exc:
        log.warning("tournament %s not moved on after game %s: %s", game.tournament[0], game.id, exc)
    except Exception:  # noqa: BLE001 - the move that ended the table stands whatever happens here
        log.exception("tournament %s not moved on after game %s", game.tournament[0], game.id)


def sweep(deps: Dependencies) -> int:
    """Start the tournaments whose time has come (cancel those with too few players), and move
    on every running one whose round is over. Returns the tournaments it changed."""
    changed = 0
    for tid, full in store.due(deps.db, deps.clock()):
        try:
            start(deps, tid, None, "full" if full else "starts_at")
        except Problem as exc:
            if exc.slug == "too-few-players":
                _update(deps, tid, lambda t: [("TournamentCancelled", {"reason": "too-few-players"})]
                        if t.status == "open" else [], None)
            elif exc.slug != "tournament-not-open":
                raise
        changed += 1
    for tid in store.running(deps.db):  # progress also deals a round's tables a crash left undealt
        before, _ = load(deps, tid)
        changed += progress(deps, tid).updated_at != before.updated_at
    return changed


# ------------------------------------------------------------------ reading


def listing(deps: Dependencies, status: str | None, limit: int) -> dict[str, Any]:
    return {"tournaments": store.page(deps.db, status, limit)}


def show(deps: Dependencies, tid: uuid.UUID) -> dict[str, Any]:
    t, version = load(deps, tid)
    return model.out(t, version, player_ratings(deps, t))


def board_access(deps: Dependencies, gid: uuid.UUID, player: str | None, audit: bool) -> bool | None:
    """Who may read a duplicate board's table: while its round is played, its own seats alone
    (and nobody its audit): ``Problem`` board-in-play for anyone else; once the round is over,
    anyone (True). ``None``: the game is no table of a board."""
    link = _LINKS.get_(gid)
    if link is None:
        first = deps.store.read(gid, 0, limit=1)
        data = first[0].data if first and first[0].type == "GameOpened" else {}
        link = (data["tournament"]["id"], int(data["tournament"]["round"])) if data.get("board") else ()
        _LINKS.put(gid, link)
    if not link:
        return None
    if _OVER.get_(link) is None:
        t, _ = load(deps, uuid.UUID(link[0]))
        if model.board_sealed(t, link[1]):
            if audit or player is None or deps.games.seat_of(gid, player) is None:
                raise Problem("board-in-play", "this table's board is still in play at other tables; it may be "
                                               "read when its round is over", tournament_id=link[0], round=link[1])
            return None
        _OVER.put(link, True)
    return True
