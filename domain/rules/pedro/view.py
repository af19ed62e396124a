"""Pedro: what a seat may see and do (view, redact, legal_actions, summary).

Nothing here reads a face-down card except to copy it into the view of a seat that
legitimately knows it (``common.memory = notebook``: the notebook says it can still locate
the card), so ``legal_actions`` and errors never depend on hidden identities.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from domain import codec
from domain.choices import entry, one_of, subset_of
from domain.codec import ARRAY_MAX
from domain.rules.pedro.flow import can_draw, may_call, stock_can_supply
from domain.rules.pedro.messages import (
    CardDrawn, CardKept, CardPeeked, CardsShown, ClaimResolved, RoundDealt, StockReshuffled, Target,
)
from domain.rules.pedro.model import (
    AWAIT, HOLDING, OVER, POWER, PUBLIC, State,
)


def _phase(s: State) -> str:
    if s.step == OVER:
        return "game_over"
    return "final_lap" if s.caller is not None else "turns"


def _step(s: State) -> str | None:
    """The step in the common vocabulary: lower case, and Pedro's power prompt is ``power``."""
    if s.step is None:
        return None
    return "power" if s.step == POWER else s.step.lower()


def held_visible(s: State, seat: int | None) -> bool:
    return s.source == "discard" or s.cfg.show_drawn or (seat is not None and seat == s.turn)


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The seat's projection; ``seat=None`` is a spectator (public facts only): the common
    view core (see :mod:`domain.ruleset`) and Pedro's ``extension``."""
    entries = s.notebook.entries
    strict = s.cfg.strict
    players = []
    for owner, lay in enumerate(s.layouts):
        slots = []
        for slot, card in zip(lay.slots, lay.cards):
            shown = None
            if card is not None and not strict and (
                    (PUBLIC, owner, slot) in entries or (seat is not None and (seat, owner, slot) in entries)):
                shown = card
            slots.append({"slot": slot, "card": shown, "empty": card is None})
        players.append({"seat": owner, "card_count": len(lay.present()), "cards": slots,
                        "own_turns": s.own_turns[owner] if s.own_turns else 0, "locked": s.caller == owner})
    held = None
    if s.held is not None:
        held = {"card": s.held if held_visible(s, seat) else None, "source": s.source}
    return {
        "ruleset": "pedro", "seat": seat, "round": s.round, "phase": _phase(s), "step": _step(s),
        "turn": s.turn, "turn_no": s.turn_no, "dealer": s.dealer, "scores": list(s.scores),
        "last_round_scores": list(s.last_round) if s.last_round is not None else None,
        "winners": list(s.winners) if s.winners else None,
        "players": players, "stock_count": len(s.stock), "discard_count": len(s.pile),
        "discard_top": s.pile[-1] if s.pile else None, "held": held, "window": None,
        "call": None if s.caller is None else {"seat": s.caller, "kind": "pedro"},
        "power": None if s.power is None else {"rank": str(s.power)},
        "extension": {
            "ruleset": "pedro", "direction": "right" if s.cfg.direction == -1 else "left",
            "round_wins": list(s.round_wins), "penalty_seat": s.penalty_seat, "final_lap": s.cfg.final_lap,
            "can_peek": seat is not None and _may_peek(s, seat),
        },
    }


def summary(s: State) -> dict[str, Any]:
    return {"round": s.round, "phase": _phase(s), "step": _step(s), "turn": s.turn, "dealer": s.dealer,
            "scores": list(s.scores)}


def redact(event: Any, seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it: server-only and other seats' private cards become None."""
    out = codec.typed(event)
    if isinstance(event, (RoundDealt, StockReshuffled)):
        out["order"] = None
        out["salt"] = None
    elif isinstance(event, CardsShown):
        return out if seat == event.seat else None
    elif isinstance(event, (CardDrawn, CardKept)):
        if not event.public and seat != event.seat:
            out["card"] = None
    elif isinstance(event, CardPeeked):
        if seat != event.seat:
            out["card"] = None
    elif isinstance(event, ClaimResolved):
        if not event.drawn_public and seat != event.actor:
            out["drawn_card"] = None
        if event.outcome != "correct" and not (
                event.reveal == "public" or (event.reveal == "private" and seat == event.actor)):
            out["revealed"] = [[slot, None] for slot, _card in event.revealed]
    return out


# --------------------------------------------------------------------------- legal actions

#: The fields legal_actions may list with choices (domain.choices), by command type.
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "Keep": ("also_discard",), "UsePower6": ("target",), "UsePower5": ("own", "other", "a", "b"),
}


def _may_peek(s: State, seat: int) -> bool:
    return (not s.cfg.peek_at_deal and s.step in (AWAIT, HOLDING, POWER)
            and seat not in s.acted and seat not in s.peeked)


def power_targets(s: State, seat: int) -> list[dict[str, Any]]:
    """Every UsePower5/UsePower6 the public facts allow, compactly (:mod:`domain.choices`): one
    entry per seat looked at, per rival swapped with, or per two seats swapped between."""
    out: list[dict[str, Any]] = []
    if s.power == 6:
        for owner, lay in enumerate(s.layouts):
            spots = [[owner, slot] for slot in lay.occupied()]
            if spots:
                out.append(entry({"type": "UsePower6", "target": spots[0]}, target=one_of(spots)))
        return out
    locked = s.caller
    seats = [p for p in range(s.players) if p != locked and s.layouts[p].occupied()]
    if s.cfg.power5_any_two:
        for p, q in combinations(seats, 2):
            a = [[p, slot] for slot in s.layouts[p].occupied()]
            b = [[q, slot] for slot in s.layouts[q].occupied()]
            out.append(entry({"type": "UsePower5", "a": a[0], "b": b[0]}, a=one_of(a), b=one_of(b)))
        return out
    if seat == locked:
        return out
    own = s.layouts[seat].occupied()
    if not own:
        return out
    for p in seats:
        if p != seat:
            other = [[p, slot] for slot in s.layouts[p].occupied()]
            out.append(entry({"type": "UsePower5", "own": own[0], "other": other[0]},
                             own=one_of(own), other=one_of(other)))
    return out


def legal_actions(s: State, seat: int) -> list[dict[str, Any]]:
    """Every command the seat may send now, as JSON (claims listed whatever the seat knows),
    compactly: one ``Keep`` per ``replace`` names the slots ``also_discard`` may be any set of."""
    out: list[dict[str, Any]] = []
    if _may_peek(s, seat):
        out.append({"type": "PeekBottom"})
    if seat != s.turn:
        return out
    if s.step == AWAIT:
        if may_call(s, seat):
            out.append({"type": "CallPedro"})
        if stock_can_supply(s) or s.cfg.end_round_on_empty:
            out.append({"type": "Draw", "source": "stock"})
        if s.pile:
            out.append({"type": "Draw", "source": "discard"})
        if not can_draw(s):
            out.append({"type": "SkipTurn"})
    elif s.step == HOLDING:
        occupied = s.layouts[seat].occupied()
        multi = s.source == "stock" or s.cfg.multi_any
        for r in occupied:
            keep = {"type": "Keep", "replace": r, "also_discard": []}
            # any set X of the others, so that discarding all one's cards but r is offered too
            out.append(entry(keep, also_discard=subset_of([x for x in occupied if x != r], most=ARRAY_MAX))
                       if multi else keep)
        if s.source == "stock" or s.cfg.allow_return:
            out.append({"type": "Release"})
    elif s.step == POWER:
        out.extend(power_targets(s, seat))
        if s.cfg.powers_optional:
            out.append({"type": "SkipPower"})
    return out
