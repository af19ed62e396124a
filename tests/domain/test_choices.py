"""domain.choices: what an entry with choices stands for, and how it is read."""
from __future__ import annotations

import random
from collections import Counter

from domain.choices import allows, command, commands, count, covers, entry, find, one_of, pick, subset_of, values
from domain.rules.pedro import RULESET as PEDRO

KEEP = entry({"type": "Keep", "replace": "A", "also_discard": []}, also_discard=subset_of(["B", "C", "D"]))
SNAP = entry({"type": "SnapRival", "window_id": 3, "rival": 1, "rival_slot": "A", "penalty_to": "new"},
             rival_slot=one_of(["A", "B"]), penalty_to=one_of(["new", "empty:C"]))
GROUP = entry({"type": "MatchGroup", "window_id": 2, "slots": ["A", "B"]}, slots=subset_of("ABCDE", least=2, most=4))


def test_an_entry_stands_for_every_combination_of_its_choices_and_a_field_with_one_value_has_none() -> None:
    assert one_of(["new"]) is None and subset_of([]) is None and subset_of(["A"], least=2) is None
    assert entry({"type": "Draw"}, source=one_of(["stock"])) == {"type": "Draw"}
    assert count(KEEP) == 8 and count(SNAP) == 4 and count(GROUP) == 10 + 10 + 5
    assert list(commands(SNAP)) == [
        {**command(SNAP), "rival_slot": x, "penalty_to": p} for x in "AB" for p in ("new", "empty:C")]
    assert [c["also_discard"] for c in commands(KEEP)][:5] == [[], ["B"], ["C"], ["D"], ["B", "C"]]
    assert values(SNAP, "rival_slot") == ["A", "B"] and values(SNAP, "rival") == [1] and values(KEEP, "x") == []


def test_allows_takes_any_subset_in_any_order_within_its_bounds_and_nothing_else() -> None:
    assert allows(KEEP, {"type": "Keep", "replace": "A", "also_discard": ["D", "B"]})
    assert allows(KEEP, command(KEEP)) and allows(KEEP, KEEP)
    for wrong in (["B", "B"], ["A"], ["E"], "B"):
        assert not allows(KEEP, {"type": "Keep", "replace": "A", "also_discard": wrong})
    assert not allows(KEEP, {"type": "Keep", "replace": "B", "also_discard": []})
    assert not allows(KEEP, {"type": "Keep", "replace": "A"})  # a field left out is another shape
    assert not allows(GROUP, {**command(GROUP), "slots": ["A"]})
    assert not allows(GROUP, {**command(GROUP), "slots": list("ABCDE")})
    assert covers([KEEP, SNAP], {**command(SNAP), "rival_slot": "B"})


def test_find_fills_the_fields_asked_for_and_keeps_the_entry_s_others() -> None:
    assert find([SNAP, KEEP], type="Keep", also_discard=["C"]) == {"type": "Keep", "replace": "A",
                                                                    "also_discard": ["C"]}
    assert find([SNAP], rival_slot="B", penalty_to="empty:C") == {**command(SNAP), "rival_slot": "B",
                                                                  "penalty_to": "empty:C"}
    assert find([SNAP], rival_slot="C") is None and find([SNAP], give_slot="A") is None


def test_pick_draws_every_command_of_an_entry_as_often_as_any_other() -> None:
    rng = random.Random(5)
    seen = Counter(tuple(pick(GROUP, rng)["slots"]) for _ in range(25_000))
    assert len(seen) == 25 and max(seen.values()) < 1.25 * min(seen.values())


def test_an_entry_with_its_choices_is_parsed_as_the_command_it_stands_as() -> None:
    assert PEDRO.parse_command(KEEP) == PEDRO.parse_command({"type": "Keep", "replace": "A", "also_discard": []})
