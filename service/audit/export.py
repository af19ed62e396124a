"""The audit export: a game's events as stored, with the revealed facts and their checks.

Format ``facedown-audit/1`` (documented in ``docs/fairness.md``)::

    {"format": "facedown-audit/1", "game_id", "ruleset", "status": "finished" | "active",
     "complete": bool, "upto_version", "head": {"version", "hash"},
     "secret_commitment", "secret" (hex or null), "entropy": [hex by seat],
     "events": [{"version", "type", "schema_version", "data", "metadata",
                 "time", "actor", "prev_hash", "hash"}],
     "verification": {"ok", "checks", "first_failure", "failures"},
     "board" (a duplicate board's table only): {"tournament", "round", "commitment", "seed"}}

For an active game only the events of finished rounds are exported (never the
current round, never the secret); :class:`AuditUnavailable` when no round is finished.
"""
from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from events.store import EventStore, RecordedEvent
from service.audit.log import GameLog, read_log
from service.audit.verify import verify_export

FORMAT = "facedown-audit/1"


class AuditUnavailable(Exception):
    """Nothing of this game may be exported yet (its first round is still being played)."""


class GameNotFound(Exception):
    pass


def event_json(ev: RecordedEvent) -> dict[str, Any]:
    meta = ev.metadata if isinstance(ev.metadata, dict) else {}
    return {
        "version": ev.version, "type": ev.type, "schema_version": ev.schema_version,
        "data": ev.data, "metadata": ev.metadata,
        # shown for reading; both come from the chained metadata (recorded_at is not chained)
        "time": meta.get("at"), "actor": meta.get("actor"),
        "prev_hash": ev.prev_hash.hex(), "hash": ev.hash.hex(),
    }


def load_log(store: EventStore, game_id: uuid.UUID, upto: int | None = None) -> GameLog:
    recorded = store.read(game_id, upto=upto)
    if not recorded or recorded[0].type != "GameOpened":
        raise GameNotFound(str(game_id))
    return read_log([event_json(e) for e in recorded])


def board_of(store: EventStore, events: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """A duplicate board's table: its board (tournament, round, commitment, and the seed once
    the tournament's stream has revealed it with the round's end); None for any other game."""
    opened = events[0]["data"] if events else {}
    if not opened.get("board"):
        return None
    tid, n = opened["tournament"]["id"], int(opened["tournament"]["round"])
    seed = next((e.data.get("seed") for e in store.read(uuid.UUID(tid))
                 if e.type == "RoundEnded" and e.data.get("n") == n), None)
    return {"tournament": tid, "round": n, "commitment": opened["board"]["commitment"], "seed": seed}


def build(game_id: uuid.UUID | str, events: Sequence[dict[str, Any]],
          board: dict[str, Any] | None = None) -> dict[str, Any]:
    """The export of ``events`` (every event of the stream, in order), per the policy above,
    with a duplicate table's ``board`` (:func:`board_of`)."""
    log = read_log(events)
    finished = log.finished()
    upto = log.finished_rounds_upto()
    if upto == 0:
        raise AuditUnavailable("no round of this game has finished yet")
    shown = [e for e in events if int(e["version"]) <= upto]
    last = shown[-1] if shown else None
    export: dict[str, Any] = {
        "format": FORMAT,
        "game_id": str(game_id),
        "ruleset": log.ruleset_name,
        "status": "finished" if finished else "active",
        "complete": finished,
        "upto_version": upto,
        "head": {"version": last["version"] if last else 0, "hash": last["hash"] if last else "00" * 32},
        "secret_commitment": log.secret_commitment,
        "secret": log.secret if finished else None,
        "entropy": [log.entropy.get(s) for s in range(log.players)],  # null: a seat never taken
        "events": shown,
    }
    if board is not None:
        export["board"] = board
    export["verification"] = verify_export(export).summary()
    return export


def export_game(store: EventStore, game_id: uuid.UUID) -> dict[str, Any]:
    recorded = store.read(game_id)
    if not recorded or recorded[0].type != "GameOpened":
        raise GameNotFound(str(game_id))
    events = [event_json(e) for e in recorded]
    return build(game_id, events, board_of(store, events))


def dumps(export: Any) -> str:
    """The canonical text of an export file (what ``verify`` expects byte for byte)."""
    return json.dumps(export, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
