"""A greedy Pedro bot: it sees only its view and its legal actions (it never peeks).

* Peeks when it may; calls "Pedro" when every own card is known and the total is low, or
  the estimate is clearly lower than what the rivals' card counts suggest.
* Takes the visible card when it beats its worst known (or unknown) card, otherwise draws.
* Keeps a drawn card that lowers its total the most, discarding known identical groups.
* Uses a 6 on its own unknown cards first; a 5 to give away its worst known card.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.choices import command, commands, find, pick, values

#: Expected value of a face-down card nobody showed us (french54, roughly).
UNKNOWN = 6.5
_FACE = {"A": 1, "J": 11, "Q": 12, "K": 13, "JK": 1}


def value(card: str | None) -> float:
    """Points of a card as the default profiles price it (K♦ and 12 de oros = 0)."""
    if card is None:
        return UNKNOWN
    if card in ("KD", "12O"):
        return 0
    rank = card if card == "JK" else card[:-1]
    return _FACE[rank] if rank in _FACE else int(rank)


def _rank(card: str) -> str:
    return card if card == "JK" else card[:-1]


def _own(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in view["players"][view["seat"]]["cards"] if not c["empty"]]


def _estimate(cards: list[dict[str, Any]]) -> float:
    return sum(value(c["card"]) for c in cards)


def _should_call(view: dict[str, Any]) -> bool:
    """Call on a low, (almost) known total; later in the round, when below every rival's estimate."""
    me = view["seat"]
    own = _own(view)
    est = _estimate(own)
    unknown = sum(1 for c in own if c["card"] is None)
    rivals = [_estimate([c for c in p["cards"] if not c["empty"]]) for p in view["players"] if p["seat"] != me]
    turns = view["players"][me]["own_turns"]
    return ((unknown == 0 and est <= 5) or (unknown <= 1 and est <= 9 and turns >= 2)
            or (turns >= 8 and est + 2 < min(rivals)) or turns >= 15)


def _worst(own: list[dict[str, Any]]) -> tuple[str, float]:
    worst = max(own, key=lambda c: value(c["card"]))
    return worst["slot"], value(worst["card"])


def greedy(view: Any, actions: Sequence[Any], rng: random.Random, must_act: bool) -> Any:
    if not actions:
        return None
    peek = find(actions, type="PeekBottom")
    if peek is not None:
        return peek
    if not must_act:
        return None
    step = view["step"]
    if step == "await_action":
        return _await(view, actions, rng)
    if step == "holding":
        return _holding(view, actions)
    if step == "power":
        return _power(view, actions, rng)
    return pick(actions[rng.randrange(len(actions))], rng)


def _await(view: dict[str, Any], actions: Sequence[Any], rng: random.Random) -> Any:
    call = find(actions, type="CallPedro")
    if call is not None and _should_call(view):
        return call
    top = view["discard_top"]
    take = find(actions, type="Draw", source="discard")
    if take is not None and top is not None and value(top) + 2 < _worst(_own(view))[1]:
        return take
    return find(actions, type="Draw", source="stock") or take or find(actions, type="SkipTurn") or command(actions[0])


def _holding(view: dict[str, Any], actions: Sequence[Any]) -> Any:
    card = view["held"]["card"]
    v = value(card)
    own = _own(view)
    best, gain = None, 0.0
    # Known identical groups: replacing one and discarding the rest removes them all.
    by_rank: dict[str, list[str]] = {}
    for c in own:
        if c["card"] is not None:
            by_rank.setdefault(_rank(c["card"]), []).append(c["slot"])
    for rank, slots in by_rank.items():
        if len(slots) >= 2 and len(slots) <= 4:
            a = find(actions, type="Keep", replace=slots[0], also_discard=slots[1:])
            g = value(own_card(own, slots[0])) * len(slots) - v
            if a is not None and g > gain:
                best, gain = a, g
    slot, worst = _worst(own)
    if worst - v > gain:
        best, gain = find(actions, type="Keep", replace=slot, also_discard=[]), worst - v
    release = find(actions, type="Release")
    if best is not None and gain > 0.5:
        return best
    if release is not None:
        return release
    return best or find(actions, type="Keep", replace=slot, also_discard=[]) or command(actions[0])


def own_card(own: list[dict[str, Any]], slot: str) -> str | None:
    card: str | None = next(c["card"] for c in own if c["slot"] == slot)
    return card


def _power(view: dict[str, Any], actions: Sequence[Any], rng: random.Random) -> Any:
    me = view["seat"]
    if view["power"]["rank"] == "6":
        looks = [c for a in actions if a["type"] == "UsePower6" for c in commands(a)]
        mine = [c for c in looks if c["target"][0] == me and own_card(_own(view), c["target"][1]) is None]
        pool = mine or looks
        if pool:
            return pool[rng.randrange(len(pool))]
    else:
        known = {(p["seat"], c["slot"]): c["card"] for p in view["players"] for c in p["cards"]}
        best, gain = None, 1.0
        for a in actions:
            if a["type"] != "UsePower5" or "own" not in a:
                continue
            # own and other are chosen apart: the dearest own card for the cheapest other one
            own = max(values(a, "own"), key=lambda x: value(known.get((me, x))))
            other = min(values(a, "other"), key=lambda t: value(known.get((t[0], t[1]))))
            g = value(known.get((me, own))) - value(known.get((other[0], other[1])))
            if g > gain:
                best, gain = {**command(a), "own": own, "other": other}, g
        if best is not None:
            return best
        skip = find(actions, type="SkipPower")
        if skip is not None:
            return skip
    return pick(actions[rng.randrange(len(actions))], rng)
