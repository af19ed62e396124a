"""Ratings as a projection of the game logs (docs/ratings.md): the update that rides on the
append ending a rated game, and the rebuild of every rating from the logs.

The append's update is computed here from the ratings read just before it; the effect
(``events.ratings.effect``) locks each player's row and refuses the whole append if a rating
moved in between (``RatingsMoved``, a ``ConcurrencyError``: the repository decides again).
The rebuild replays the rated games in the order they ended (the time of the transaction
that ended each, then the game's id): for two games with a player in common that is the
order their appends committed, since the later one began after the earlier one's commit
(it read that rating, or was refused and decided again).
"""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from events import game_index
from events import ratings as store
from events.db import Database
from events.store import EventStore, apply_effect
from service.model.game import Game, evolve, unreadable
from service.model.notifications import Notice
from service.model.ratings import Change, Rating, changes, is_rated


@dataclass(frozen=True, slots=True)
class Rated:
    """What ending a rated game writes: the effect, and each seat's change."""

    effect: dict[str, Any]
    changes: tuple[Change, ...]


def _entries(found: Sequence[Change]) -> list[store.Entry]:
    return [store.Entry(c.player_id, c.seat, c.rank, c.before.games, c.before.mu, c.before.sigma, c.after.mu,
                        c.after.sigma) for c in found]


def ends_rated(before: Game | None, game: Game) -> bool:
    """Whether this append ends the game, and the game counts for the ratings."""
    return game.status == "finished" and (before is None or before.status != "finished") and is_rated(game)


def ending(db: Database, before: Game | None, game: Game) -> Rated | None:
    """The ratings' update of an append that takes ``before`` to ``game``, if it ends a rated
    game: computed from the players' ratings as they are now."""
    if not ends_rated(before, game):
        return None
    players = [s.player_id for s in game.seats if s is not None]
    now = {p: Rating(*v) for p, v in store.current(db, game.ruleset, players).items()}
    found = changes(game, now)
    return Rated(store.effect(game.ruleset, _entries(found)), tuple(found))


def told(news: Sequence[Notice], rated: Rated | None) -> list[Notice]:
    """The notifications, each ``game_over`` with its player's own rating change (public facts:
    every player's change shows in the finished game)."""
    if rated is None:
        return list(news)
    by_player = {c.player_id: c for c in rated.changes}
    out = []
    for n in news:
        c = by_player.get(n.player_id) if n.kind == "game_over" else None
        out.append(n if c is None else replace(n, data={**n.data, "rating": {
            "before": c.before.public(), "after": c.after.public()}}))
    return out


# ------------------------------------------------------------ the rebuild


@dataclass(frozen=True, slots=True)
class Ended:
    at: datetime
    game_id: uuid.UUID
    game: Game


def _ended(store_: EventStore, gid: uuid.UUID) -> Ended | None:
    """The game as the append that ended it left it, and when, if it is a rated game that ended."""
    game: Game | None = None
    end: Ended | None = None
    for rec in store_.read(gid):
        if end is not None and rec.recorded_at != end.at:
            break  # the ending append's events share its transaction's time
        prior = game
        try:
            game = evolve(game, rec.type, rec.data, rec.metadata, str(gid))
        except Exception as exc:  # noqa: BLE001 - whatever it is, the event is the cause
            raise unreadable(rec, exc) from exc
        if end is not None:
            end = Ended(end.at, gid, game)
        elif prior is not None and ends_rated(prior, game):
            end = Ended(rec.recorded_at, gid, game)
    return end


def recompute(store_: EventStore, db: Database) -> list[dict[str, Any]]:
    """Every rated game's effect, in the order the games ended, computed from the logs alone."""
    ended = [e for e in (_ended(store_, gid) for gid in game_index.game_stream_ids(db)) if e is not None]
    ended.sort(key=lambda e: (e.at, e.game_id))
    current: dict[tuple[str, str], Rating] = {}
    out = []
    for e in ended:
        mine = {p: r for (rs, p), r in current.items() if rs == e.game.ruleset}
        found = changes(e.game, mine)
        for c in found:
            current[(e.game.ruleset, c.player_id)] = c.after
        out.append({"game_id": e.game_id, "effect": store.effect(e.game.ruleset, _entries(found), e.at)})
    return out


def _expected(effects: Sequence[dict[str, Any]]) -> dict[str, list[tuple[Any, ...]]]:
    """The projection's rows (``events.ratings.snapshot``'s shape) the effects would write."""
    latest: dict[tuple[uuid.UUID, str], tuple[Any, ...]] = {}
    history, games = [], []
    for item in effects:
        row = item["effect"]["row"]
        rs = row["ruleset"]
        for p in row["players"]:
            pid = uuid.UUID(p["player_id"])
            n = p["games"] + 1
            latest[(pid, rs)] = (pid, rs, p["mu_after"], p["sigma_after"], p["mu_after"] - 3 * p["sigma_after"], n)
            history.append((pid, rs, n, item["game_id"], p["seat"], p["rank"], p["mu_before"], p["sigma_before"],
                            p["mu_after"], p["sigma_after"]))
        games.append((item["game_id"], rs, row["players"]))
    return {"ratings": [latest[k] for k in sorted(latest)], "rating_history": sorted(history),
            "game_ratings": sorted(games, key=lambda g: g[0])}


def _canonical(row: tuple[Any, ...]) -> str:
    return json.dumps(row, sort_keys=True, default=str)


def differences(store_: EventStore, db: Database) -> list[str]:
    """What differs between the stored projection and one recomputed from the logs (empty: none)."""
    want, have = _expected(recompute(store_, db)), store.snapshot(db)
    out = []
    for table in want:
        w, h = {_canonical(x) for x in want[table]}, {_canonical(x) for x in have[table]}
        out += [f"{table}: missing or different: {x}" for x in sorted(w - h)]
        out += [f"{table}: not in the logs or different: {x}" for x in sorted(h - w)]
    return out


def rebuild(store_: EventStore, admin: Database) -> int:
    """Rebuild every rating from the logs, as the owner (``admin``); returns the rated games."""
    effects = recompute(store_, admin)
    store.clear(admin)
    for item in effects:
        apply_effect(admin, item["game_id"], item["effect"])
    return len(effects)
