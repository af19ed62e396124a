"""The generated part of openapi.yaml is what the rulesets say, and option schemas are exact."""
from __future__ import annotations

import dataclasses

import jsonschema
import pytest

from domain import rules
from domain.messages import SYSTEM_COMMANDS
from domain.simulation import play
from service.tools.contract import sdk_models, spec
from service.tools.contract.check import Contract
from tests.support.spec import document


def test_the_generated_block_is_up_to_date() -> None:
    assert spec.current(spec.SPEC.read_text()) == spec.block(), "run: python -m service.tools.contract"


def test_the_sdk_s_generated_commands_and_its_reader_of_choices_are_up_to_date() -> None:
    assert sdk_models.TARGET.read_text() == sdk_models.source(), "run: python -m service.tools.contract"
    assert sdk_models.CHOICES_TARGET.read_text() == sdk_models.choices_source(), "run: python -m service.tools.contract"
    for target, origin in sdk_models.COPIES.items():  # the transparency modules (docs/fairness.md)
        assert target.read_text() == sdk_models.copy_source(origin), "run: python -m service.tools.contract"


def test_every_player_command_and_every_event_of_every_ruleset_has_a_schema() -> None:
    schemas = document()["components"]["schemas"]
    for name in rules.names():
        rs = rules.get(name)
        union = schemas[spec.PREFIX[name] + "Command"]["discriminator"]["mapping"]
        assert set(union) == set(rs.command_types) - SYSTEM_COMMANDS
        events = schemas[spec.PREFIX[name] + "Event"]["discriminator"]["mapping"]
        assert set(events) == set(rs.event_types)


@pytest.mark.parametrize("name", rules.names())
def test_every_legal_action_and_every_redacted_event_of_a_played_game_validates(name: str) -> None:
    contract = Contract.load()
    rs = rules.get(name)
    result = play(rs, 3, {}, seed=7, bot="greedy", max_steps=400)
    state = None
    for i, event in enumerate(result.events):
        state = rs.evolve(state, event)
        for seat in (None, 0, 1, 2):
            shown = rs.redact(event, seat)
            if shown is not None:
                envelope = {"version": i + 1, "type": shown.pop("type"), "actor": seat,
                            "at": "2026-12-01T10:00:00Z", "data": shown}
                assert contract.schema_errors("Event", envelope) == [], (type(event).__name__, seat)
        if i % 5 == 0 and getattr(state, "layouts", True):
            for seat in (0, 1, 2):
                assert contract.schema_errors("Table", rs.view(state, seat)) == []
                for action in rs.legal_actions(state, seat)[:50]:
                    assert contract.schema_errors(spec.PREFIX[name] + "Command", action) == [], action


def test_a_system_command_has_no_player_schema_and_is_refused_as_a_player_command() -> None:
    contract = Contract.load()
    assert contract.schema_errors("Command", {"type": "TurnTimedOut", "seat": 0, "turn_no": 1}) != []


@pytest.mark.parametrize("name", rules.names())
def test_each_option_schema_accepts_exactly_what_the_server_accepts(name: str) -> None:
    rs = rules.get(name)
    # not 1.0: JSON Schema counts it as an integer, the server (stricter) refuses it
    samples = [None, True, False, 0, 1, 2, 3, 5, 25, 100, -1, 10**6, 2.5, "2", "auto", "none", "", "x"]
    for option in rs.options:
        out = option.schema()
        assert out["type"] in ("enum", "integer", "boolean")
        values = samples + list(option.choices) + [option.default]
        for value in values:
            by_schema = jsonschema.Draft202012Validator(out["schema"]).is_valid(value)
            assert by_schema == (option.check(value) is None), (option.key, value)


def test_common_decks_takes_the_integer_2_and_refuses_the_string_and_the_boolean() -> None:
    decks = next(o for o in rules.get("pedro").options if o.key == "common.decks")
    assert decks.check(2) is None and decks.check("auto") is None
    assert "must be one of" in (decks.check("2") or "") and decks.check(True) is not None
    limit = next(o for o in rules.get("pedro").options if o.key == "common.round_turn_limit")
    assert limit.schema()["default"] == "none" and limit.check("none") is None and limit.check(12) is None
    assert dataclasses.is_dataclass(decks)


def test_events_and_commands_are_checked_by_their_type_with_the_verdict_of_every_branch() -> None:
    """The checker looks only at the branch a ``type`` names (a thirtieth of the work): it must
    still refuse what the full ``oneOf`` refuses, and accept what it accepts."""
    contract = Contract.load()
    full = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/CorteCommand",
                                            "components": contract.document["components"]})
    samples = [{"type": "Draw"}, {"type": "Draw", "extra": 1}, {"type": "SnapOwn", "window_id": 1},
               {"type": "SnapOwn", "window_id": "one", "slot": "A", "penalty_to": "new"},
               {"type": "NoSuchCommand"}, {"type": 7}, {}, [], {"type": "CallCorte"}]
    for sample in samples:
        assert (contract.schema_errors("CorteCommand", sample) == []) == full.is_valid(sample), sample
    assert any(contract.schema_errors("CorteCommand", s) == [] for s in samples)
    assert any(contract.schema_errors("CorteCommand", s) != [] for s in samples)
