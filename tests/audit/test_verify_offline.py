"""Offline verification: finished games of every ruleset verify; any tampering fails, named."""
from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domain import rules
from events.canonical import chain_hash, event_body
from service.audit import export as exporting
from service.audit.verify import verify_export
from service.entrypoints.cli_audit import audit
from tests.audit import builder
from tests.sizes import sized

RULESETS = rules.names()


@cache
def _finished(name: str) -> dict[str, Any]:
    game = builder.play(name, players=3 if name != "corte" else 2, seed=7)
    return exporting.build(game.game_id, game.events())


def finished(name: str) -> dict[str, Any]:
    # through JSON, as a file would be: no dicts shared between events
    return json.loads(json.dumps(_finished(name)))  # type: ignore[no-any-return]


def run_verify(tmp_path: Path, export: dict[str, Any] | str) -> Any:
    path = tmp_path / "game.json"
    path.write_text(export if isinstance(export, str) else exporting.dumps(export), encoding="utf-8")
    return CliRunner().invoke(audit, ["verify", str(path)])


def rechain(export: dict[str, Any], start: int = 1) -> None:
    """An attacker's edit: recompute every hash after an edit so that the chain holds."""
    events = export["events"]
    prev = bytes.fromhex(events[start - 1]["prev_hash"])
    for e in events[start - 1:]:
        e["prev_hash"] = prev.hex()
        prev = chain_hash(prev, e["version"], event_body(e["type"], e["schema_version"], e["data"], e["metadata"]))
        e["hash"] = prev.hex()
    export["head"] = {"version": events[-1]["version"], "hash": prev.hex()}
    export.pop("verification", None)


def first_failure(export: dict[str, Any]) -> str:
    report = verify_export(export)
    assert not report.ok
    first = report.first()
    assert first is not None
    return first.where()


@pytest.mark.parametrize("name", RULESETS)
def test_an_exported_finished_game_verifies_offline_with_a_timeline(name: str, tmp_path: Path) -> None:
    export = finished(name)
    report = verify_export(export)
    assert report.ok, report.failures[:3]
    assert set(report.status.values()) == {"ok"}
    assert report.checked["commands replayed"] > 0 and report.checked["orders derived"] > 0
    assert report.checked["orders opened"] == report.checked["orders derived"]
    result = run_verify(tmp_path, export)
    assert result.exit_code == 0, result.output[-2000:]
    assert "RESULT: OK" in result.output
    assert "GameOpened" in result.output and "SecretRevealed" in result.output


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _leaves(v, path + (k,))]
    if isinstance(value, list):
        return [x for i, v in enumerate(value) for x in _leaves(v, path + (i,))]
    return [(path, value)]


def _changed(value: Any, rng: random.Random) -> Any:
    """The value with one byte changed (or its type's nearest change)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, -1, 10))
    if value is None:
        return 0
    text = str(value)
    if not text:
        return "x"
    i = rng.randrange(len(text))
    c = text[i]
    new = "0" if c != "0" else "1"
    if not c.isalnum():
        new = "x"
    return text[:i] + new + text[i + 1:]


def _set(root: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        root = root[k]
    root[path[-1]] = value


def _positions(name: str, count: int) -> list[tuple[int, tuple[Any, ...]]]:
    """Every leaf of every event, sampled: (event index, path inside the event)."""
    export = _finished(name)
    every = [(i, p) for i, e in enumerate(export["events"]) for p, _ in _leaves(e)]
    rng = random.Random(name)
    return sorted(rng.sample(every, min(count, len(every))))


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("count", sized(40, 160))
def test_changing_any_value_of_any_event_fails_naming_that_version(name: str, count: int) -> None:
    rng = random.Random(1)
    for index, path in _positions(name, count):
        export = finished(name)
        event = export["events"][index]
        old = dict(_leaves(event))[path]
        _set(event, path, _changed(old, rng))
        report = verify_export(export)
        assert not report.ok, (index, path)
        first = report.first()
        assert first is not None
        # an edited hash or version number shows at that event; anything else at its version
        assert first.version == index + 1, (index, path, str(first))


@pytest.mark.parametrize("name", RULESETS)
def test_changing_any_byte_of_the_file_in_an_event_fails(name: str, tmp_path: Path) -> None:
    export = finished(name)
    text = exporting.dumps(export)
    start = text.index('"events": [')
    end = text.index('"format":')  # keys are sorted: events come before format
    rng = random.Random(2)
    for pos in sorted(rng.sample(range(start + 12, end), 40)):
        c = text[pos]
        new = "1" if c != "1" else "2"
        tampered = text[:pos] + new + text[pos + 1:]
        result = run_verify(tmp_path, tampered)
        assert result.exit_code != 0, (pos, text[pos - 30:pos + 30])
        assert "FAILED" in result.output


@pytest.mark.parametrize("name", RULESETS)
def test_changing_the_revealed_secret_fails_naming_it(name: str, tmp_path: Path) -> None:
    for i in (0, 17, 63):
        export = finished(name)
        export["secret"] = _changed(export["secret"][:i] + "x" + export["secret"][i + 1:], random.Random(i))
        assert first_failure(export) == "secret"
    # in the event itself: the chain breaks at SecretRevealed's version
    export = finished(name)
    ev = next(e for e in export["events"] if e["type"] == "SecretRevealed")
    ev["data"]["secret"] = ("0" if ev["data"]["secret"][5] != "0" else "1").join(
        (ev["data"]["secret"][:5], ev["data"]["secret"][6:]))
    assert first_failure(export) == f"version {ev['version']}"
    # and re-chained by a forger: the secret no longer opens its commitment
    rechain(export)
    export["secret"] = ev["data"]["secret"]
    assert first_failure(export) == f"version {ev['version']}"
    assert verify_export(export).first().value == "secret"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", RULESETS)
def test_changing_a_seats_entropy_fails_naming_it(name: str, tmp_path: Path) -> None:
    base = finished(name)
    for seat in range(len(base["entropy"])):
        export = finished(name)
        export["entropy"][seat] = _changed(export["entropy"][seat], random.Random(seat))
        assert first_failure(export) == f"entropy[{seat}]"
        # in the SeatTaken event: the chain breaks there
        export = finished(name)
        taken = next(e for e in export["events"] if e["type"] == "SeatTaken" and e["data"]["seat"] == seat)
        taken["data"]["entropy"] = _changed(taken["data"]["entropy"], random.Random(seat))
        assert first_failure(export) == f"version {taken['version']}"
        # re-chained by a forger: the first dealer (drawn from the key) or the first deal is wrong
        export["entropy"][seat] = taken["data"]["entropy"]
        rechain(export)
        report = verify_export(export)
        started = next(e["version"] for e in export["events"] if e["type"] == "GameStarted")
        first_deal = next(e["version"] for e in export["events"] if e["type"] == "RoundDealt")
        first = report.first()
        assert first is not None and first.version in (started, first_deal), str(first)
        assert report.status["deals"] == "failed" and report.status["chain"] == "ok"
        result = run_verify(tmp_path, export)
        assert result.exit_code == 1 and f"first bad version {first.version}" in result.output


@pytest.mark.parametrize("name", RULESETS)
def test_a_rechained_forged_ruling_is_caught_by_readjudication(name: str) -> None:
    export = finished(name)
    judged = [e for e in export["events"] if "explanation" in e["data"] or "outcome" in e["data"]]
    assert judged, "every ruleset states its rulings"
    target = judged[len(judged) // 2]
    key = "explanation" if "explanation" in target["data"] else "outcome"
    target["data"][key] = "forged " + str(target["data"][key])
    rechain(export)
    report = verify_export(export)
    assert report.status["chain"] == "ok" and report.status["readjudication"] == "failed"
    assert report.first().version == target["version"]  # type: ignore[union-attr]


@pytest.mark.parametrize("name", RULESETS)
def test_a_rechained_changed_command_is_caught_by_readjudication(name: str) -> None:
    export = finished(name)
    cmds = [e for e in export["events"] if e["metadata"].get("command") and e["type"] not in ("SeatTaken",)]
    target = cmds[len(cmds) // 3]
    target["metadata"] = {**target["metadata"], "actor": (target["metadata"]["actor"] + 1) % len(export["entropy"])}
    target["actor"] = target["metadata"]["actor"]
    rechain(export)
    report = verify_export(export)
    assert report.status["chain"] == "ok" and not report.ok
    assert report.first().version == target["version"]  # type: ignore[union-attr]


def test_a_deleted_event_is_named(tmp_path: Path) -> None:
    export = finished(RULESETS[0])
    del export["events"][10]
    assert first_failure(export) == "version 11"
    # and the head receipt contradicts a log cut short
    export = finished(RULESETS[0])
    del export["events"][-1]
    report = verify_export(export)
    assert not report.ok and any(f.value == "head" for f in report.failures)


def test_not_json_or_reformatted_files_fail(tmp_path: Path) -> None:
    text = exporting.dumps(finished(RULESETS[0]))
    assert run_verify(tmp_path, text[:-40]).exit_code == 1
    assert run_verify(tmp_path, text.replace("\n ", "\n  ", 1)).exit_code == 1
    assert run_verify(tmp_path, json.dumps(json.loads(text))).exit_code == 1
