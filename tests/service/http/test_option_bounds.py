"""Every integer option has a maximum: shown in ``GET /v1/rulesets``, and a value past it
(2**70 among them) refused with 422 when a game is created."""
from __future__ import annotations

from typing import Any

import pytest

from domain import rules
from domain.errors import InvalidOptions
from tests.service.helpers import Live

INT_OPTIONS = [(name, spec) for name in rules.names() for spec in rules.get(name).options if spec.kind == "int"]


@pytest.mark.parametrize(("name", "spec"), INT_OPTIONS, ids=[f"{n}:{s.key}" for n, s in INT_OPTIONS])
def test_an_integer_option_takes_its_maximum_and_nothing_past_it(name: str, spec: Any) -> None:
    ruleset = rules.get(name)
    players = ruleset.min_players
    assert ruleset.resolve_options({spec.key: spec.upper}, players)[spec.key] == spec.upper
    for value in (spec.upper + 1, 2**70):
        with pytest.raises(InvalidOptions) as info:
            ruleset.resolve_options({spec.key: value}, players)
        assert info.value.errors == {spec.key: f"must be at most {spec.upper}"}


def test_the_rulesets_listing_shows_every_integer_options_bounds(live: Live) -> None:
    listed = {r["name"]: r for r in live.player("reader").get("/v1/rulesets").json()["rulesets"]}
    for name, spec in INT_OPTIONS:
        shown = next(o for o in listed[name]["options"] if o["key"] == spec.key)
        assert shown["type"] == "integer" and shown["maximum"] == spec.upper and shown["maximum"] <= 10**6
        assert shown["minimum"] == spec.minimum


def test_a_game_with_an_option_past_its_maximum_is_422(live: Live) -> None:
    creator = live.player("bounded")
    for value in (2**70, 100_001):
        r = creator.post("/v1/games", {"ruleset": "corte", "seats": 2, "options": {"target_score": value}})
        assert r.status_code == 422 and r.headers["Content-Type"].startswith("application/problem+json"), r.text
