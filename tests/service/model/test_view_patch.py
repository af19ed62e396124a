"""``service.model.view_patch``: the patch between two JSON documents, applied by an independent
RFC 6902 implementation (``jsonpatch``), gives the second exactly, and carries nothing that is
not part of it; what did not change is not in it."""
from __future__ import annotations

from typing import Any

import jsonpatch
import orjson
from hypothesis import given, settings, strategies as st

from service.model.view_patch import view_patch

PROPERTY = settings(max_examples=600, deadline=None, database=None, derandomize=True)

# keys with the two characters a JSON Pointer escapes, values with null, and arrays of objects
# that look like legal_actions (a few shared members), nested a few levels deep
keys = st.sampled_from(["type", "slot", "card", "a/b", "m~n", "~1", "", "seat"])
leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["A", "B", "5D", "KC"]))
documents = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                          st.dictionaries(keys, inner, max_size=5)), max_leaves=30)


def _parts(doc: Any) -> list[bytes]:
    """Every value inside ``doc`` (itself included), as JSON text."""
    out = [orjson.dumps(doc)]
    children = doc.values() if isinstance(doc, dict) else doc if isinstance(doc, list) else []
    for child in children:
        out += _parts(child)
    return out


@PROPERTY
@given(old=documents, new=documents)
def test_the_patch_applied_to_the_old_document_gives_the_new_one(old: Any, new: Any) -> None:
    ops = view_patch(old, new)
    assert jsonpatch.apply_patch(old, ops) == new
    assert (ops == []) == (old == new)
    assert {op["op"] for op in ops} <= {"add", "remove", "replace"}


@PROPERTY
@given(old=st.dictionaries(keys, documents, max_size=5), new=st.dictionaries(keys, documents, max_size=5))
def test_every_value_in_the_patch_is_a_part_of_the_new_document(old: dict[str, Any], new: dict[str, Any]) -> None:
    parts = set(_parts(new))
    assert all(orjson.dumps(op["value"]) in parts for op in view_patch(old, new) if "value" in op)


def test_what_did_not_change_is_not_sent_and_a_changed_entry_is_patched_in_place() -> None:
    seats = [{"seat": s, "name": f"p{s}", "status": "playing"} for s in range(4)]
    orders = [{"type": "PlaceOrder", "rank": "A", "choices": {"rank": {"one_of": list("A23456789")}}}] * 3

    def players(card: str | None) -> list[dict[str, Any]]:
        return [{"seat": s, "card_count": 4, "own_turns": 2, "locked": False,
                 "cards": [{"slot": slot, "card": card if (s, slot) == (0, "A") else None, "empty": False}
                           for slot in "ABCD"]} for s in range(4)]

    old = {"version": 7, "seats": seats, "legal_actions": [{"type": "Draw"}, *orders],
           "table": {"players": players(None)}}
    new = {"version": 9, "seats": seats, "legal_actions": [{"type": "SnapOwn", "window_id": 3}, *orders],
           "table": {"players": players("KC")}}
    assert view_patch(old, new) == [
        {"op": "replace", "path": "/version", "value": 9},
        {"op": "replace", "path": "/legal_actions/0", "value": {"type": "SnapOwn", "window_id": 3}},
        {"op": "replace", "path": "/table/players/0/cards/0/card", "value": "KC"}]
    # a key with "/" or "~" is escaped as RFC 6901 says
    assert view_patch({"a/b": 1, "m~n": 1}, {"a/b": 2, "m~n": 2}) == [
        {"op": "replace", "path": "/a~1b", "value": 2}, {"op": "replace", "path": "/m~0n", "value": 2}]
