"""The game index as a projection of each append: the rows a list or a sweep reads,
written in the append's own statement, and rebuilt from the log alone when asked."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from domain import rules
from events import game_index
from events.db import Database
from events.store import EventStore, NewEvent
from service.model.clock import next_due
from service.model.game import SERVICE_EVENTS, Game, fold_records, moment
from service.model.views import deadline_out, seats_public


_PER_COMMAND = frozenset({"entropy", "timeouts_in_row"})  # seat fields a list does not show


def awaiting(game: Game) -> list[int]:
    return list(rules.get(game.ruleset).awaiting(game.rules)) if game.status == "active" else []


def may_act(game: Game, waiting: Sequence[int]) -> list[int]:
    """Seats with any legal action now, a claim included (``legal_actions`` depends only on
    public facts and the seat's own knowledge), but for standing orders; never a seat the
    server plays."""
    if game.status != "active":
        return []
    rs = rules.get(game.ruleset)
    # a standing order may be placed or cancelled at any time: it is no move to make now
    return [s for s in game.playing() if s in waiting or rs.may_move(game.rules, s)]


def _uuid(value: str | None) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(value)


def index_row(game: Game, version: int, full: bool = True) -> game_index.IndexRow:
    """The game's row; ``full=False`` leaves out the seats, which a command never changes."""
    d = game.deadline
    facts = rules.get(game.ruleset).summary(game.rules) if game.rules is not None else {}
    waiting = awaiting(game)
    winners = game.winners()
    scores = facts.get("scores")
    # what only service events change (a command's lighter update leaves the seats as they are)
    seats = [{k: v for k, v in s.items() if k not in _PER_COMMAND} for s in seats_public(game)] if full else []
    return game_index.IndexRow(
        uuid.UUID(game.id), game.ruleset, game.name, game.status, seats, waiting, moment(game.updated_at), version,
        d.kind if d else None, moment(d.since) if d else None,
        game.visibility, _uuid(game.creator), sum(1 for s in seats if s["player_id"] is None and not s["reserved_for"]),
        facts.get("round"), list(scores) if scores is not None else None,
        list(winners) if winners is not None else None, may_act(game, waiting), next_due(game),
        deadline_out(game), game.time_control.to_json() if game.time_control else None,
        _uuid(game.rematch_of), _uuid(game.next_game))


def of_append(game: Game, version: int, events: Sequence[NewEvent]) -> dict[str, Any]:
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
