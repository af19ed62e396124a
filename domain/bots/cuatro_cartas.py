"""A greedy 4 Cartas bot: it uses only its view and its legal actions (it never peeks).

It matches only cards its view shows, leaves a standing order for each of its own cards
it remembers, keeps low cards, replaces its highest known (or an unknown) card, looks at
its own unknown cards with powers, and closes when its estimated total is low. Unknown
cards are estimated at the pack's mean value.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.bots.corte import remembered_order
from domain.choices import command, find, pick

_UNKNOWN = 5.5  # about the mean card value of the pack, with 8s at 0
_VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10, "8": 0}


def _value(card: str) -> int:
    r = card[:-1]
    v = _VALUES.get(r)
    return int(r) if v is None else v


def _my_slots(view: Any) -> list[dict[str, Any]]:
    seat = view["seat"]
    return [x for x in view["players"][seat]["cards"] if not x["empty"]]


def _estimate(slots: list[dict[str, Any]]) -> float:
    return sum(_UNKNOWN if x["card"] is None else _value(x["card"]) for x in slots)


def greedy(view: Any, actions: Sequence[Any], rng: random.Random, must_act: bool) -> Any:
    if not actions:
        return None
    slots = _my_slots(view)
    window = view.get("window")
    # A sure match first (only cards the view shows: no guessing, no oracle).
    if window is not None:
        want = window["card"][:-1]
        for x in slots:
            if x["card"] is not None and x["card"][:-1] == want:
                a = find(actions, type="Match", slot=x["slot"])
                if a is not None:
                    return a
    kinds = {a["type"] for a in actions}
    if "Pass" in kinds:
        return find(actions, type="Pass")
    if not must_act:
        return remembered_order(view, actions, "Match")
    if "ChoosePeek" in kinds:
        return find(actions, type="ChoosePeek", slots=["C", "D"]) or command(actions[0])
    step = view.get("step")
    if step == "await_action":
        return _await(view, actions, slots, kinds)
    if step == "holding":
        return _holding(view, actions, slots)
    if step == "power_look":
        unknown = [[view["seat"], x["slot"]] for x in slots if x["card"] is None]
        for n in (2, 1):
            look = find(actions, type="Look", targets=unknown[:n], close=False) if len(unknown) >= n else None
            if look is not None:
                return look
        return find(actions, type="SkipPower", close=False) or command(actions[0])
    if step == "power_swap":
        return find(actions, type="NoSwap", close=False) or command(actions[0])
    return pick(actions[rng.randrange(len(actions))], rng)


def _await(view: Any, actions: Sequence[Any], slots: list[dict[str, Any]], kinds: set[str]) -> Any:
    known = all(x["card"] is not None for x in slots)
    if "Close" in kinds and (_estimate(slots) <= 4 or (known and _estimate(slots) <= 6)):
        return find(actions, type="Close")
    top = view.get("discard_top")
    worst = max((_value(x["card"]) for x in slots if x["card"] is not None), default=_UNKNOWN)
    if top is not None and _value(top) <= 3 and _value(top) < worst:
        a = find(actions, type="Draw", source="discard")
        if a is not None:
            return a
    return find(actions, type="Draw", source="stock") or find(actions, type="Draw") or command(actions[0])


def _holding(view: Any, actions: Sequence[Any], slots: list[dict[str, Any]]) -> Any:
    held = view.get("held")
    v = _value(held["card"]) if held is not None and held["card"] is not None else _UNKNOWN
    close = view["call"] is None and _estimate(slots) - 2 <= 4
    best = None
    known = [(x["slot"], _value(x["card"])) for x in slots if x["card"] is not None]
    if known:
        slot, high = max(known, key=lambda t: t[1])
        if high > v:
            best = slot
    if best is None and v <= 4:
        unknown = [x["slot"] for x in slots if x["card"] is None]
        best = unknown[0] if unknown else None
    if best is not None:
        a = find(actions, type="Replace", slot=best, close=close) or find(actions, type="Replace", slot=best)
        if a is not None:
            return a
    return (find(actions, type="DiscardDrawn", close=close) or find(actions, type="DiscardDrawn")
            or find(actions, type="Replace") or command(actions[0]))
