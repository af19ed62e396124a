"""Least Score: what a seat may see and do (view, redact, legal_actions).

A seat sees its own hand, every hand count, the open set and the counts of the stock
and the dead pile; with ``common.memory = notebook`` also, for each other player, the
cards that player took from an open set and surely still holds (public table
knowledge). Nothing here reads another seat's hidden cards or the stock order.
"""
from __future__ import annotations

from typing import Any

from domain import codec
from domain.rules.least_score.model import LeastState, RoundDealt, RoundScored, SetPlayed, StockReshuffled
from domain.rules.least_score.sets import hand_total, legal_sets, sort_key


def check_declare(state: LeastState, seat: int) -> str | None:
    """Why ``seat`` may not declare now (public facts and its own hand only), or None."""
    opts = state.opts
    if opts.no_declare_first_lap and state.turns_done[seat] < 1:
        return "you may declare only from your second turn of the deal"
    if opts.max_declare_total is not None and hand_total(state.hands[seat]) > opts.max_declare_total:
        return f"your total is above the maximum for declaring ({opts.max_declare_total})"
    return None


def open_takeable(state: LeastState) -> tuple[str, ...]:
    """The open cards that may be taken (``pickup_any_open_card = false``: a run's ends)."""
    if state.open_kind == "run" and not state.opts.pickup_any_open_card:
        return (state.open_set[0], state.open_set[-1])
    return state.open_set


def legal_actions(state: LeastState, seat: int) -> list[Any]:
    """Every ``Play`` (each distinct legal set × each take) and ``Declare`` when allowed."""
    if state.phase != "turns" or seat != state.turn:
        return []
    takes = ["stock"] if state.stock or state.dead else []
    seen: set[str] = set()
    for c in open_takeable(state):
        if c not in seen:
            seen.add(c)
            takes.append("open:" + c)
    hand = tuple(sorted(state.hands[seat], key=sort_key))
    out: list[Any] = [{"type": "Play", "discard": list(s), "take": t}
                      for s in legal_sets(hand, state.opts.sets) for t in takes]
    if check_declare(state, seat) is None:
        out.append({"type": "Declare"})
    return out


def _cards(state: LeastState, p: int, seat: int | None, notebook: bool) -> list[dict[str, Any]]:
    """One entry per card of p's hand as ``seat`` knows it: all of its own, else the cards
    the notebook says p surely holds, then unknown ones (a hand has no slots)."""
    if not state.hands:
        return []
    hand = state.hands[p]
    shown: list[str | None] = list(hand) if p == seat else list(state.known[p]) if notebook and state.known else []
    shown += [None] * (len(hand) - len(shown))
    return [{"slot": None, "card": c, "empty": False} for c in shown]


def view(state: LeastState, seat: int | None) -> dict[str, Any]:
    """The common view core (see :mod:`domain.ruleset`) and Least Score's ``extension``."""
    notebook = state.opts.memory == "notebook"
    players = [{"seat": p, "card_count": len(state.hands[p]) if state.hands else 0,
                "cards": _cards(state, p, seat, notebook),
                "own_turns": state.turns_done[p] if state.turns_done else 0, "locked": False}
               for p in range(state.players)]
    mine = seat is not None and seat == state.turn and state.phase == "turns"
    return {
        "ruleset": "least-score",
        "seat": seat,
        "round": state.round,
        "phase": "game_over" if state.phase == "over" else state.phase,
        "step": None,
        "turn": state.turn,
        "turn_no": state.turn_no + 1 if state.phase == "turns" else None,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "last_round_scores": list(state.last_round) if state.last_round is not None else None,
        "winners": list(state.winners) if state.phase == "over" else None,
        "players": players,
        "stock_count": len(state.stock),
        "discard_count": len(state.dead),
        # the dead cards are out of play; the pile's face is the open set, which may be taken
        "discard_top": state.open_set[-1] if state.open_set else None,
        "held": None,
        "window": None,
        "call": None,
        "power": None,
        "extension": {
            "ruleset": "least-score",
            "first_player": state.starter,
            "hand_total": hand_total(state.hands[seat]) if seat is not None and state.hands else None,
            "open_set": list(state.open_set),
            "open_kind": state.open_kind,
            "open_from": state.open_from,
            "open_takeable": list(open_takeable(state)),
            "can_declare": mine and check_declare(state, seat) is None if seat is not None else False,
            "playoff": state.playoff,
            "threshold": state.opts.elimination_threshold,
            "seated": list(state.seated),
            "eliminated": list(state.eliminated),
        },
    }


#: Stored field name -> the name the API presents (the common vocabulary; stored data keeps its names).
PRESENTED_NAMES: dict[str, dict[str, str]] = {
    "RoundDealt": {"starter": "first_player"},
    "RoundScored": {"declarer": "caller", "declarer_total": "caller_total"},
}


def redact(event: Any, seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it: server-only fields dropped, private ones nulled."""
    data = codec.typed(event)
    if isinstance(event, RoundDealt):
        for k in ("stock", "order", "salt"):
            del data[k]
        data["hands"] = [list(h) if p == seat else None for p, h in enumerate(event.hands)]
        return codec.renamed(data, PRESENTED_NAMES["RoundDealt"])
    if isinstance(event, RoundScored):
        return codec.renamed(data, PRESENTED_NAMES["RoundScored"])
    if isinstance(event, StockReshuffled):
        del data["order"], data["salt"]
    elif isinstance(event, SetPlayed):
        if event.take == "stock" and seat != event.seat:
            data["card"] = None
    return data
