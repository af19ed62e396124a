"""A greedy Corte bot: it plays only from its view and its legal actions (it never peeks).

Unknown cards are valued at the pack's mean (about 6.5). It keeps low cards, peeks at
what it does not know, snaps only cards it can see in its view as matching, leaves a
standing order for each of its own cards it remembers, and calls when its estimated total
is low.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.cards import rank
from domain.choices import command, commands, find, values

UNKNOWN = 6.5
CALL_AT = 6.0


def _value(card: str | None) -> float:
    if card is None:
        return UNKNOWN
    r = rank(card)
    return {"A": 1, "J": 0, "Q": 20, "K": 20}.get(r, 0) if r in "AJQK" else float(r)


def _my_slots(view: Any) -> list[dict[str, Any]]:
    return [x for x in view["players"][view["seat"]]["cards"] if not x["empty"]]


def _known(view: Any, seat: int, slot: str) -> str | None:
    for x in view["players"][seat]["cards"]:
        if x["slot"] == slot:
            return x["card"]  # type: ignore[no-any-return]
    return None


def _first(actions: Sequence[Any], kind: str) -> Any:
    """The first entry of type ``kind`` as it stands (a command it allows), or ``None``."""
    return next((command(a) for a in actions if a["type"] == kind), None)


def _snap(view: Any, actions: Sequence[Any]) -> Any:
    """A snap on a card this seat sees matching the current, unwon window; else ``None``."""
    w = view["window"]
    if w is None or w["won"]:
        return None
    want = rank(w["card"])
    me = view["seat"]
    # What the view shows, by (seat, slot): one pass over the grids instead of one per action.
    known = {(p, x["slot"]): x["card"] for p, player in enumerate(view["players"]) for x in player["cards"]}
    for (p, slot), c in known.items():
        if p == me and c is not None and rank(c) == want:
            snap = find(actions, type="SnapOwn", slot=slot, penalty_to="new")
            if snap is not None:
                return snap
    mine = sorted(_my_slots(view), key=lambda x: -_value(x["card"]))
    give = {"give_slot": mine[0]["slot"]} if mine else {}
    for (p, slot), c in known.items():
        if p != me and c is not None and rank(c) == want:
            snap = find(actions, type="SnapRival", rival=p, rival_slot=slot, penalty_to="new", **give)
            if snap is not None:
                return snap
    return None


def remembered_order(view: Any, actions: Sequence[Any], claim: str) -> Any:
    """A standing order (``claim`` on an own slot) for a card the view shows there; else ``None``.

    Slots that already have an order are not listed, so each remembered card gets one."""
    mine = {x["slot"]: rank(x["card"]) for x in _my_slots(view) if x["card"] is not None}
    for a in actions:
        if a["type"] == "PlaceOrder" and a["claim"] == claim:
            penalty = {"penalty_to": "new"} if "penalty_to" in a else {}
            for slot, r in mine.items():
                order = find([a], slot=slot, rank=r, **penalty)
                if order is not None:
                    return order
    return None


def _estimate(view: Any) -> float:
    return sum(_value(x["card"]) for x in _my_slots(view))


def _turn(view: Any, actions: Sequence[Any], rng: random.Random) -> Any:
    me = view["seat"]
    kinds = {a["type"] for a in actions}
    if "ChoosePeek" in kinds:
        return _first(actions, "ChoosePeek")
    if "Draw" in kinds or "SkipTurn" in kinds:
        call = _first(actions, "CallCorte")
        if call is not None and _estimate(view) <= CALL_AT and _own_turns(view) >= 1:
            return call
        return _first(actions, "Draw") or _first(actions, "SkipTurn")
    if "DiscardDrawn" in kinds:
        held = _value(view["held"]["card"])
        slots = sorted(_my_slots(view), key=lambda x: -_value(x["card"]))
        if slots and (_value(slots[0]["card"]) > held + 0.5):
            return {"type": "Replace", "slot": slots[0]["slot"]}
        return _first(actions, "DiscardDrawn")
    unknown_own = [x["slot"] for x in _my_slots(view) if x["card"] is None]
    for a in actions:
        if a["type"] == "PeekOwn" and a["slot"] in unknown_own:
            return a
        if a["type"] == "PeekRival":
            peek = next((c for c in commands(a) if _known(view, c["player"], c["slot"]) is None), None)
            if peek is not None:
                return peek
    for kind in ("BlindSwap", "KingLook"):
        if kind in kinds:
            worst = max(_my_slots(view), key=lambda x: _value(x["card"]))
            if kind == "BlindSwap" and _value(worst["card"]) < 10:
                continue
            options = [{**command(a), "own_slot": worst["slot"], "rival_slot": x} for a in actions
                       if a["type"] == kind and worst["slot"] in values(a, "own_slot") for x in values(a, "rival_slot")]
            return rng.choice(options)
    if "KingKeep" in kinds:
        k = view["extension"]["king"]
        own, theirs = _known(view, me, k["own_slot"]), _known(view, k["rival"], k["rival_slot"])
        swap = _first(actions, "KingSwap")
        if swap is not None and own is not None and theirs is not None and _value(theirs) < _value(own):
            return swap
        return _first(actions, "KingKeep")
    return _first(actions, "SkipPower") or (command(actions[0]) if actions else None)


def _own_turns(view: Any) -> int:
    return view["players"][view["seat"]]["own_turns"]  # type: ignore[no-any-return]


_TURN_KINDS = frozenset({"ChoosePeek", "CallCorte", "Draw", "SkipTurn", "DiscardDrawn", "Replace", "PeekOwn",
                         "PeekRival", "BlindSwap", "KingLook", "KingSwap", "KingKeep", "SkipPower"})


def greedy(view: Any, actions: Sequence[Any], rng: random.Random, must_act: bool) -> Any:
    """The bot policy (see :mod:`domain.bots`)."""
    if not actions:
        return None
    snap = _snap(view, actions)
    if snap is not None:
        return snap
    turn = [a for a in actions if a["type"] in _TURN_KINDS]
    if turn:
        return _turn(view, turn, rng)
    order = remembered_order(view, actions, "SnapOwn")
    if order is not None:
        return order
    passing = _first(actions, "Pass")
    if passing is not None and must_act:
        return passing
    return None
