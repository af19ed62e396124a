"""Least Score: what a seat may see and do (view, redact, legal_actions).

A seat sees its own hand, every hand count, the open set and the counts of the stock
and the dead pile; with ``common.memory = notebook`` also, for each other player, the
cards that player took from an open set and surely still holds (public table
knowledge). Nothing here reads another seat's hidden cards or the stock order.
"""
from __future__ import annotations

from typing import Any

from domain import codec
from domain.rules.least_score_model import LeastState, RoundDealt, SetPlayed, StockReshuffled
from domain.rules.least_score_sets import hand_total, legal_sets, sort_key


def check_declare(state: LeastState, seat: int) -> str | None:
    """Why ``seat`` may not declare now (public facts and its own hand only), or None."""
    opts = state.opts
    if opts.no_declare_first_lap and state.turns_done[seat] < 1:
        return "you may declare only from your second turn of the deal (RULES §4.3)"
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


def view(state: LeastState, seat: int | None) -> dict[str, Any]:
    notebook = state.opts.memory == "notebook"
    players = []
    for p in range(state.players):
        players.append({
            "seat": p,
            "seated": p in state.seated,
            "eliminated": p in state.eliminated,
            "hand": list(state.hands[p]) if p == seat and state.hands else None,
            "hand_count": len(state.hands[p]) if state.hands else 0,
            "known": list(state.known[p]) if notebook and p != seat and state.known else None,
            "turns_done": state.turns_done[p] if state.turns_done else 0,
        })
    mine = seat is not None and seat == state.turn and state.phase == "turns"
    return {
        "ruleset": "least-score",
        "seat": seat,
        "round": state.round,
        "phase": state.phase,
        "turn": state.turn,
        "turn_no": state.turn_no + 1 if state.phase == "turns" else None,
        "dealer": state.dealer,
        "starter": state.starter,
        "scores": list(state.scores),
        "last_round_scores": list(state.last_round) if state.last_round is not None else None,
        "players": players,
        "hand_total": hand_total(state.hands[seat]) if seat is not None and state.hands else None,
        "stock_count": len(state.stock),
        "dead_count": len(state.dead),
        "open_set": list(state.open_set),
        "open_kind": state.open_kind,
        "open_from": state.open_from,
        "open_takeable": list(open_takeable(state)),
        "discard_top": state.open_set[-1] if state.open_set else None,
        "window": None,
        "call": None,
        "can_declare": mine and check_declare(state, seat) is None if seat is not None else False,
        "playoff": state.playoff,
        "winners": list(state.winners),
        "threshold": state.opts.elimination_threshold,
    }


def redact(event: Any, seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it: server-only fields dropped, private ones nulled."""
    data = codec.typed(event)
    if isinstance(event, RoundDealt):
        for k in ("stock", "order", "salt"):
            del data[k]
        data["hands"] = [list(h) if p == seat else None for p, h in enumerate(event.hands)]
    elif isinstance(event, StockReshuffled):
        del data["order"], data["salt"]
    elif isinstance(event, SetPlayed):
        if event.take == "stock" and seat != event.seat:
            data["card"] = None
    return data
