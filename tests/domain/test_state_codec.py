"""Every state of every ruleset round-trips exactly through its JSON form, and decoding
builds nothing but the codec's own value classes."""
from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest

import domain
from domain import rules
from domain.ruleset import fold
from domain.simulation import play
from domain.state_codec import StateCodec, value_classes
from domain.table import Layout, Notebook, Window

# (players, bot, seed, options): several rounds, reshuffles, claims and powers; seven
# players deal from two packs; a turn limit ends rounds early
GAMES = [(4, "greedy", 1, {}), (7, "random", 2, {}), (2, "greedy", 3, {"common.round_turn_limit": 30})]
CODEC = StateCodec(value_classes(domain))


def same(a: Any, b: Any, path: str = "$") -> None:
    """``a == b`` with the same type at every level (``==`` alone takes a NamedTuple for a
    plain tuple, ``1`` for ``True``, a set for a frozenset)."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} became {type(b).__name__}"
    if isinstance(a, tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, frozenset):
        assert a == b, path
    elif hasattr(a, "__dataclass_fields__"):
        for name in a.__dataclass_fields__:
            same(getattr(a, name), getattr(b, name), f"{path}.{name}")
    else:
        assert a == b, path


def round_trip(value: Any) -> Any:
    return CODEC.decode(json.loads(json.dumps(CODEC.encode(value), allow_nan=False)))


@pytest.mark.parametrize("name", rules.names())
@pytest.mark.parametrize(("players", "bot", "seed", "options"), GAMES)
def test_every_state_of_a_seeded_game_comes_back_equal_and_of_the_same_types(
        name: str, players: int, bot: str, seed: int, options: dict[str, Any]) -> None:
    ruleset = rules.get(name)
    players = min(players, ruleset.max_players)
    result = play(ruleset, players, options, seed, bot)
    assert result.violations == [] and len(result.events) > 50
    state = None
    for event in result.events:
        state = ruleset.evolve(state, event)
        back = round_trip(state)
        same(state, back)
        assert back == state
    assert state == fold(ruleset, result.events) and ruleset.is_terminal(round_trip(state))


def test_the_registry_holds_every_rulesets_state_and_the_shared_table_values() -> None:
    names = {f"{c.__module__}.{c.__qualname__}" for c in value_classes(domain)}
    assert {"domain.table.Layout", "domain.table.Notebook", "domain.table.Window"} <= names
    for package in ("corte", "cuatro_cartas", "pedro"):
        assert f"domain.rules.{package}.model.State" in names
    assert "domain.rules.least_score.model.LeastState" in names


def test_containers_and_scalars_keep_their_types() -> None:
    value = (True, 1, 1.5, None, "10H", (), frozenset({(0, 1, "A")}), {"common.decks": "auto"},
             {1: "a", (2, "B"): None}, Window(3, "KD", None, True, frozenset({1, 2})),
             Notebook(), Layout(("A", "B"), ("5S", None)))
    same(value, round_trip(value))


class Foreign(NamedTuple):
    x: int


@pytest.mark.parametrize("value", [[1, 2], {3}, b"raw", Foreign(1), object(), (1, ["nested list"])])
def test_a_value_of_a_type_outside_the_codec_is_refused_when_encoding(value: Any) -> None:
    with pytest.raises(TypeError):
        CODEC.encode(value)


@pytest.mark.parametrize("form", [
    {"builtins.eval": ["__import__('os').system('true')"]},  # a class the codec does not hold
    {"posix.system": ["true"]},
    {"test_state_codec.Foreign": [1]},
    {"table.Layout": [["A"], ["5S"]], "x": 1},  # two keys
    {"table.Layout": {"slots": ["A"]}},  # fields by name
    {"table.Window": [1]},  # too few fields
    {"frozenset": "abc"},
    {"dict": [["a", 1]]},
    {},
])
def test_a_form_naming_anything_else_is_refused_when_decoding(form: Any) -> None:
    with pytest.raises((ValueError, TypeError)):
        CODEC.decode(form)


def test_the_forms_are_plain_json_with_one_tag_per_value() -> None:
    form = CODEC.encode((Window(1, "2S"), frozenset({3}), {"k": (1,)}))
    assert form == [{"table.Window": [1, "2S", None, False, {"frozenset": []}]},
                    {"frozenset": [3]}, {"dict": {"k": [1]}}]
