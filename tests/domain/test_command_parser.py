"""A ruleset's ``parse_command`` remembers the commands it built, and never hands one out for
JSON that only compares equal to the JSON it was built from (``true`` and ``1``, ``1.0`` and
``1``, an array of ``true`` and one of ``1``)."""
from __future__ import annotations

import pytest

from domain import rules
from domain.codec import CommandParser
from domain.errors import InvalidCommand
from domain.rules.corte import ChoosePeek, PeekRival

COMMAND_TYPES = rules.get("corte").command_types


def test_the_same_json_gives_the_same_command_object() -> None:
    parse = CommandParser(COMMAND_TYPES)
    first = parse({"type": "PeekRival", "player": 1, "slot": "A"})
    again = parse({"type": "PeekRival", "player": 1, "slot": "A"})
    assert first == PeekRival(1, "A") and again is first


@pytest.mark.parametrize("other", [True, 1.0])
def test_a_value_equal_to_a_remembered_one_but_of_another_type_is_parsed_and_refused(other: object) -> None:
    parse = CommandParser(COMMAND_TYPES)
    assert parse({"type": "PeekRival", "player": 1, "slot": "A"}) == PeekRival(1, "A")
    with pytest.raises(InvalidCommand, match="player"):
        parse({"type": "PeekRival", "player": other, "slot": "A"})
    # and the other way round: a refusal is never remembered, an accepted command still is
    parse = CommandParser(COMMAND_TYPES)
    with pytest.raises(InvalidCommand):
        parse({"type": "PeekRival", "player": other, "slot": "A"})
    assert parse({"type": "PeekRival", "player": 1, "slot": "A"}) == PeekRival(1, "A")


def test_arrays_are_parsed_every_time_whether_lists_or_tuples() -> None:
    parse = CommandParser(COMMAND_TYPES)
    assert parse({"type": "ChoosePeek", "slots": ("A", "B")}) == ChoosePeek(("A", "B"))
    assert parse({"type": "ChoosePeek", "slots": ["A", "B"]}) == ChoosePeek(("A", "B"))
    assert parse({"type": "PeekRival", "player": 1, "slot": "A"}) == PeekRival(1, "A")
    with pytest.raises(InvalidCommand):  # (True, 2) == (1, 2): a tuple is never remembered
        parse({"type": "ChoosePeek", "slots": (True, "B")})
    with pytest.raises(InvalidCommand):
        parse({"type": "ChoosePeek", "slots": (1, "B")})


def test_the_order_of_the_keys_is_part_of_what_is_remembered() -> None:
    parse = CommandParser(COMMAND_TYPES)
    a = parse({"type": "PeekRival", "player": 1, "slot": "A"})
    b = parse({"slot": "A", "player": 1, "type": "PeekRival"})
    assert a == b == PeekRival(1, "A")
