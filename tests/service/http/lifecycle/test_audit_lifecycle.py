"""The audit's lifecycle check: the service's own events are replayed with the service's
code, so a log whose automatic move came early, whose vote was not the majority's, or whose
bot or player played a seat that was not theirs fails, naming the version."""
from __future__ import annotations

import copy
import random
import uuid
from datetime import timedelta
from typing import Any

from events.canonical import GENESIS, chain_hash, event_body
from service.audit.export import export_game
from service.audit.verify import verify_export
from service.usecases.sweep import sweep
from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import Clock, HOUR, api_of, at, play_greedy, started


def _rechained(export: dict[str, Any]) -> dict[str, Any]:
    """The export with its chain recomputed after an edit (as a forger who owns the database
    would), and no claimed verification: only the replay can catch the edit."""
    out = copy.deepcopy(export)
    prev = GENESIS
    for e in out["events"]:
        e["prev_hash"] = prev.hex()
        prev = chain_hash(prev, e["version"], event_body(e["type"], e["schema_version"], e["data"], e["metadata"]))
        e["hash"] = prev.hex()
        e["time"], e["actor"] = e["metadata"].get("at"), e["metadata"].get("actor")
    out["head"] = {"version": out["events"][-1]["version"], "hash": prev.hex()}
    out.pop("verification")
    return out


def _lifecycle_failures(export: dict[str, Any]) -> list[Any]:
    return [f for f in verify_export(export).failures if f.check == "lifecycle"]


def _timed_out_game(live: Live, clock: Clock) -> dict[str, Any]:
    """A game with a player's move, three timeouts and a resignation."""
    gid, (ann, bob) = started(live, "least-score")
    assert play_greedy(ann, gid, random.Random(1)) or play_greedy(bob, gid, random.Random(1))
    for _ in range(3):
        clock.advance(HOUR + 1)
        sweep(api_of(live))
    bob.post(f"/v1/games/{gid}/resign")
    return export_game(api_of(live).store, uuid.UUID(gid))


def test_an_honest_log_passes_the_lifecycle_check(live: Live, clock: Clock) -> None:
    export = _timed_out_game(live, clock)
    report = verify_export(export)
    assert report.ok and report.status["lifecycle"] == "ok" and report.checked["requests judged"] > 5


def test_a_timeout_sent_before_its_deadline_fails_at_its_version(live: Live, clock: Clock) -> None:
    export = _timed_out_game(live, clock)
    forged = copy.deepcopy(export)
    target = next(e for e in forged["events"] if (e["metadata"].get("command") or {}).get("type") == "TurnTimedOut")
    early = (at(target["metadata"]["at"]) - timedelta(minutes=30)).isoformat().replace("+00:00", "Z")
    for e in forged["events"]:
        if e["metadata"] == target["metadata"] and e is not target:
            e["metadata"] = {**e["metadata"], "at": early}
    target["metadata"] = {**target["metadata"], "at": early}
    failures = _lifecycle_failures(_rechained(forged))
    assert failures and failures[0].version == target["version"] and "before its deadline" in failures[0].message


def test_a_resignation_by_someone_else_fails(live: Live, clock: Clock) -> None:
    export = _timed_out_game(live, clock)
    forged = copy.deepcopy(export)
    resigned = next(e for e in forged["events"] if e["type"] == "SeatResigned")
    other = next(e["data"]["player_id"] for e in forged["events"]
                 if e["type"] == "SeatTaken" and e["data"]["player_id"] != resigned["data"]["player_id"])
    for e in forged["events"]:
        if e["version"] >= resigned["version"] and e["metadata"].get("command") == {"type": "Resign"}:
            e["metadata"] = {**e["metadata"], "player": other}
    failures = _lifecycle_failures(_rechained(forged))
    assert failures and failures[0].version == resigned["version"]


def test_a_move_by_a_bot_no_vote_put_there_fails(live: Live, clock: Clock) -> None:
    export = _timed_out_game(live, clock)
    forged = copy.deepcopy(export)
    move = next(e for e in forged["events"] if isinstance(e["metadata"].get("actor"), int)
                and e["type"] not in ("SeatTaken", "SeatResigned", "GameConcluded"))
    meta = move["metadata"]
    for e in forged["events"]:
        if e["metadata"] == meta:
            e["metadata"] = {**meta, "player": None, "bot": "greedy"}
    failures = _lifecycle_failures(_rechained(forged))
    assert failures and failures[0].version == move["version"] and "bot" in failures[0].message
