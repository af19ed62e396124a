"""Games created before revision 3 keep their frozen options, and the audit replays them unchanged.

A game stores its resolved options in its first events (``GameOpened``, then ``GameStarted``),
so a change of default does not reach it; an option added since is absent from its set, and
``start`` keeps that set as it was, so that re-adjudication reproduces the stored events.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain import rules
from service.audit import export as exporting
from tests.audit import builder

OLD_DEFAULTS = {"corte": {"lock_caller": True, "powers_optional": True}, "cuatro-cartas": {"lock_closer": True}}


def _stored_before(name: str) -> dict[str, Any]:
    """The option set a game created before revision 3 stored: the old defaults, no new keys."""
    resolved = rules.get(name).resolve_options(OLD_DEFAULTS[name], 3)
    return {k: v for k, v in resolved.items() if k != "rediscard_power"}


@pytest.mark.parametrize("name", sorted(OLD_DEFAULTS))
def test_a_game_with_an_option_set_from_before_revision_3_verifies_and_plays_by_it(name: str) -> None:
    stored = _stored_before(name)
    game = builder.play(name, players=3, seed=11, options=stored)
    events = game.events()
    opened = next(e for e in events if e["type"] == "GameOpened")
    started = next(e for e in events if e["type"] == "GameStarted")
    assert opened["data"]["options"] == stored == started["data"]["options"]
    report = exporting.build(game.game_id, events)["verification"]
    assert report["ok"], report["first_failure"]
    assert report["checks"]["readjudication"] == "ok"
