"""Standing orders in the audit: the export holds every order of a finished round and what it
did; re-adjudication replays them, so an edited order fails at its version."""
from __future__ import annotations

import json
from typing import Any

import pytest

from service.audit import export as exporting
from service.audit.timeline import render
from service.audit.verify import verify_export
from tests.audit import builder
from tests.audit.test_verify_offline import rechain

GAMES = {"corte": 2, "cuatro-cartas": 4}  # seeds whose random bots leave, fire and cancel orders


def _export(name: str) -> dict[str, Any]:
    game = builder.play(name, players=4, seed=GAMES[name])
    return json.loads(json.dumps(exporting.build(game.game_id, game.events())))  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_finished_game_with_orders_verifies_and_its_export_shows_each_order_and_what_it_did(name: str) -> None:
    export = _export(name)
    assert export["verification"]["ok"], export["verification"]["first_failure"]
    events = export["events"]
    placed = [e for e in events if e["type"] == "OrderPlaced"]
    fired = [e for e in events if e["type"] == "OrderFired"]
    assert placed and fired
    for f in fired:  # the claim the order sent is judged in the next event
        nxt = events[events.index(f) + 1]
        assert nxt["type"] == "ClaimResolved" and nxt["data"]["actor"] == f["data"]["seat"]
    summaries = [o for e in events if e["type"] == "OrdersRevealed" for o in e["data"]["orders"]]
    assert sorted((o["seat"], o["order_id"]) for o in summaries) == \
        sorted((e["data"]["seat"], e["data"]["order_id"]) for e in placed)
    assert all(o["result"] in ("fired", "by_owner", "slot_changed", "round_ended", "not_claimable")
               for o in summaries)
    text = render(export, verify_export(export))
    assert "OrderPlaced" in text and "OrdersRevealed" in text and "RESULT: OK" in text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_edited_order_fails_re_adjudication_at_its_version(name: str) -> None:
    export = _export(name)
    target = next(e for e in export["events"] if e["type"] == "OrderPlaced")
    target["data"]["rank"] = "A" if target["data"]["rank"] != "A" else "2"
    rechain(export, target["version"])
    report = verify_export(export)
    first = report.first()
    assert not report.ok and first is not None
    assert (first.check, first.version) == ("readjudication", target["version"])
