"""Greedy Least Score bot: shed the most points now, take low or pairing cards, declare when low.

It sees only its view and its legal actions: its own hand, the open set, the counts,
and what the view says other players surely hold.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.rules.least_score import hand_total, value

#: The value an unseen stock card is assumed to have (the pack averages 85/13 ≈ 6.5).
STOCK_GUESS = 6.0
#: Declare at or below this total outright.
SAFE_TOTAL = 4


def _rank(card: str) -> str:
    return card if card == "JK" else card[:-1]


def _score(hand: list[str], action: dict[str, Any]) -> float:
    """Expected hand value after the play, lower is better (pairs kept for later count half)."""
    rest = list(hand)
    for c in action["discard"]:
        rest.remove(c)
    take = action["take"]
    if take == "stock":
        gained = STOCK_GUESS
    else:
        card = take[5:]
        gained = value(card)
        # A card that pairs with one we keep can leave together with it next turn.
        rank = _rank(card)
        if any(_rank(c) == rank for c in rest):
            gained -= 0.5 * value(card) + 1
    return hand_total(tuple(rest)) + gained


def _should_declare(view: dict[str, Any]) -> bool:
    total: int | None = view["extension"]["hand_total"]
    if total is None:
        return False
    if total <= SAFE_TOTAL:
        return True
    me = next(p for p in view["players"] if p["seat"] == view["seat"])
    # Patience runs out: the longer the deal lasts, the higher the total worth declaring.
    if total <= SAFE_TOTAL + me["own_turns"] // 3:
        return True
    seat = view["seat"]
    seated = view["extension"]["seated"]
    for p in view["players"]:
        if p["seat"] == seat or p["seat"] not in seated:
            continue
        known = [c["card"] for c in p["cards"] if c["card"] is not None]
        # The least this opponent can hold: known cards plus 1 per unknown card (aces).
        floor = sum(value(c) for c in known) + (p["card_count"] - len(known))
        if floor <= total or p["card_count"] <= 2:
            return False
    return total <= 9


def greedy(view: Any, actions: Sequence[Any], rng: random.Random, must_act: bool) -> Any:
    if not actions:
        return None
    if any(a["type"] == "Declare" for a in actions) and _should_declare(view):
        return next(a for a in actions if a["type"] == "Declare")
    hand = [c["card"] for c in view["players"][view["seat"]]["cards"]]
    plays = [a for a in actions if a["type"] == "Play"]
    if not plays:
        return actions[0]
    scores = [_score(hand, a) for a in plays]  # once per play (it was computed twice)
    best = min(scores)
    choices = [a for a, score in zip(plays, scores) if score <= best + 1e-9]
    return choices[rng.randrange(len(choices))]
