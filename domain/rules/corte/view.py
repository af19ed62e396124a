"""Corte: what a seat may see and do (view, redact, legal_actions, awaiting, summary).

Nothing here reads a face-down card except through the notebook (what the seat was
shown and can still locate) and the seat's own held card, so no answer depends on a
card the seat has not seen.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from domain import orders
from domain.choices import CHOICES, command, entry, one_of
from domain.codec import typed
from domain.messages import CardDrawn
from domain.rules.corte.events import (
    CardDiscarded,
    CardGiven,
    CardsPeeked,
    ClaimResolved,
    PeekChosen,
    PenaltyCardDealt,
    RoundDealt,
    StockReshuffled,
)
from domain.rules.corte.model import (
    AWAIT_ACTION,
    FINAL_LAP,
    FINAL_WINDOW,
    HOLDING,
    INITIAL_PEEK,
    KING_DECIDE,
    POWER,
    TURNS,
    State,
)
from domain.table import Layout
from domain.windows import penalty_choices

JSON = Any
_CLAIM_PHASES = (TURNS, FINAL_LAP, FINAL_WINDOW)
#: The fields legal_actions may list with choices (domain.choices), by command type.
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "SnapOwn": ("slot", "penalty_to"), "SnapRival": ("rival_slot", "give_slot", "penalty_to"),
    "PeekRival": ("slot",), "BlindSwap": ("own_slot", "rival_slot"), "KingLook": ("own_slot", "rival_slot"),
    **orders.CHOICE_FIELDS,
}
ORDER_PHASES = (INITIAL_PEEK, TURNS, FINAL_LAP)  # while windows may still open this round


# ---------------------------------------------------------------- claims


def claims_open(s: State) -> bool:
    """A window is current and claims may name it (not during a power, C5)."""
    w = s.window
    if w is None or s.phase not in _CLAIM_PHASES or s.step in (POWER, KING_DECIDE):
        return False
    return not (w.won_by is not None and s.opts.late_snap == "reject")


def _give_choices(s: State, lay: Layout) -> list[str | None]:
    own = lay.occupied()
    if own:
        return list(own)
    return [] if s.opts.zero_card_rival_snap == "forbid" else [None]


def has_claim(s: State, seat: int) -> bool:
    """Whether ``legal_actions`` would offer this seat at least one snap now."""
    if not claims_open(s) or seat == s.locked() or (s.window is not None and seat in s.window.passed):
        return False
    lay = s.layouts[seat]
    if lay.has_cards():
        return True
    return bool(_give_choices(s, lay)) and bool(_rivals(s, seat))


def _rivals(s: State, seat: int) -> list[tuple[int, list[str]]]:
    """Each rival a snap or a power may name (not locked, some card), with its occupied slots."""
    locked = s.locked()
    return [(p, list(s.layouts[p].occupied())) for p in range(s.players)
            if p != seat and p != locked and s.layouts[p].has_cards()]


def _snap_rival(head: dict[str, Any], rival: int, slots: list[str], gives: list[str | None],
                pens: list[str]) -> JSON:
    """One entry for snapping (or ordering a snap of) any of ``slots`` of ``rival``: any give, any penalty_to."""
    give = {} if gives[0] is None else {"give_slot": gives[0]}
    return entry({**head, "rival": rival, "rival_slot": slots[0], "penalty_to": pens[0], **give},
                 rival_slot=one_of(slots), penalty_to=one_of(pens), give_slot=one_of(gives))


def claim_actions(s: State, seat: int) -> list[JSON]:
    """Every snap that passes the public checks, whatever the seat knows, compactly
    (:mod:`domain.choices`): one ``SnapOwn`` entry (any own slot, any ``penalty_to``), and one
    ``SnapRival`` entry per rival (any of its slots, any ``give_slot``, any ``penalty_to``)."""
    if not has_claim(s, seat):
        return []
    w = s.window
    assert w is not None
    head = {"type": "SnapOwn", "window_id": w.id}
    lay = s.layouts[seat]
    pens = penalty_choices(lay)
    own = lay.occupied()
    out: list[JSON] = []
    if own:
        out.append(entry({**head, "slot": own[0], "penalty_to": pens[0]}, slot=one_of(own), penalty_to=one_of(pens)))
    gives = _give_choices(s, lay)
    if gives:
        head["type"] = "SnapRival"
        out += [_snap_rival(head, rival, slots, gives, pens) for rival, slots in _rivals(s, seat)]
    return out


# ---------------------------------------------------------------- legal actions


def _power_actions(s: State, seat: int) -> list[JSON]:
    """The power's commands: one entry per own slot for a 5, else one per rival (any of its
    slots, and for a Q or a K any own slot)."""
    own = s.layouts[seat].occupied()
    locked = s.locked()
    rivals = [(p, list(s.layouts[p].occupied())) for p in range(s.players) if p != seat and s.layouts[p].has_cards()]
    r = s.power
    out: list[JSON]
    if r == "5":
        out = [{"type": "PeekOwn", "slot": slot} for slot in own]
    elif r == "6":
        out = [entry({"type": "PeekRival", "player": p, "slot": slots[0]}, slot=one_of(slots)) for p, slots in rivals]
    elif not own:
        out = []
    else:
        kind = "BlindSwap" if r == "Q" else "KingLook"
        out = [entry({"type": kind, "own_slot": own[0], "rival": p, "rival_slot": slots[0]},
                     own_slot=one_of(own), rival_slot=one_of(slots))
               for p, slots in rivals if kind == "KingLook" or p != locked]
    if s.opts.powers_optional:
        out.append({"type": "SkipPower"})
    return out


def can_draw(s: State) -> bool:
    """A turn draw can find a card (after a reshuffle, if the option allows one)."""
    return bool(s.stock) or (s.opts.stock_exhausted == "reshuffle" and len(s.pile) > 1)


def can_call(s: State, seat: int) -> bool:
    return s.caller is None and s.own_turns[seat] >= s.opts.min_own_turns


def turn_actions(s: State, seat: int) -> list[JSON]:
    if s.phase not in (TURNS, FINAL_LAP) or s.turn != seat:
        return []
    if s.step == AWAIT_ACTION:
        out: list[JSON] = [{"type": "CallCorte"}] if can_call(s, seat) else []
        if can_draw(s) or s.opts.stock_exhausted == "end_round":
            out.append({"type": "Draw", "source": "stock"})
        else:
            out.append({"type": "SkipTurn"})
        return out
    if s.step == HOLDING:
        return [{"type": "DiscardDrawn"}] + [{"type": "Replace", "slot": x} for x in s.layouts[seat].occupied()]
    if s.step == POWER:
        return _power_actions(s, seat)
    if s.step == KING_DECIDE:
        assert s.king is not None
        return ([] if s.king[1] == s.locked() else [{"type": "KingSwap"}]) + [{"type": "KingKeep"}]
    return []


def order_actions(s: State, seat: int) -> list[JSON]:
    """Standing orders, compactly: one ``PlaceOrder`` entry for a ``SnapOwn`` on any own slot
    without an order yet, one per rival for a ``SnapRival`` on any of its slots without one
    (any rank, any ``give_slot``, any ``penalty_to``); and one ``CancelOrder`` entry."""
    forms: list[orders.Form] = []
    if s.phase in ORDER_PHASES and seat != s.locked():
        lay = s.layouts[seat]
        pens = penalty_choices(lay)
        mine = orders.unclaimed(s.book, seat, seat, lay.occupied())
        if mine:
            forms.append(("SnapOwn", {"slot": mine[0], "penalty_to": pens[0]},
                          {"slot": one_of(mine), "penalty_to": one_of(pens)}))
        gives = _give_choices(s, lay)
        for rival, slots in _rivals(s, seat) if gives else ():
            free = orders.unclaimed(s.book, seat, rival, slots)
            if free:
                listed = _snap_rival({}, rival, free, gives, pens)
                forms.append(("SnapRival", command(listed), listed.get(CHOICES, {})))
    return orders.actions(s.book, seat, forms)


def moves(s: State, seat: int) -> list[JSON]:
    """The seat's legal actions but for standing orders: what it may play now."""
    if s.phase == INITIAL_PEEK:
        return [] if seat in s.peeked else [
            {"type": "ChoosePeek", "slots": [a, b]} for a, b in combinations(s.layouts[seat].slots, 2)]
    out = turn_actions(s, seat) + claim_actions(s, seat)
    if s.phase == FINAL_WINDOW and has_claim(s, seat):
        assert s.window is not None
        out.append({"type": "Pass", "window_id": s.window.id})
    return out


def legal_actions(s: State, seat: int) -> list[JSON]:
    return moves(s, seat) + order_actions(s, seat)


def may_move(s: State, seat: int) -> bool:
    """Whether :func:`moves` is not empty, without building the snaps' long list (a snap is
    offered exactly when :func:`has_claim`, and ``Pass`` only beside one)."""
    if s.phase == INITIAL_PEEK:
        return seat not in s.peeked and len(s.layouts[seat].slots) >= 2
    return has_claim(s, seat) or bool(turn_actions(s, seat))


def awaiting(s: State) -> tuple[int, ...]:
    if s.phase == INITIAL_PEEK:
        return tuple(p for p in range(s.players) if p not in s.peeked)
    if s.phase in (TURNS, FINAL_LAP) and s.turn is not None and s.step is not None:
        return (s.turn,)
    if s.phase == FINAL_WINDOW:
        return tuple(p for p in range(s.players) if has_claim(s, p))
    return ()


# ---------------------------------------------------------------- view


def summary(s: State) -> JSON:
    return {"round": s.round, "phase": s.phase.lower(), "turn": _turn(s), "dealer": s.dealer,
            "scores": list(s.scores), "turn_no": s.turn_no}


def _turn(s: State) -> int | None:
    return s.turn if s.phase in (TURNS, FINAL_LAP) else None


def view(s: State, seat: int | None) -> JSON:
    """The common view core (see :mod:`domain.ruleset`) and Corte's ``extension``."""
    locked = s.locked()
    # A face-down card is shown only to a seat that can still locate it (notebook memory).
    known = () if seat is None or s.opts.memory == "strict" else s.notebook.entries
    players = []
    for p, lay in enumerate(s.layouts):
        cards = lay.cards
        players.append({
            "seat": p,
            "card_count": len(cards) - cards.count(None),
            "cards": [{"slot": slot, "card": c if c is not None and (seat, p, slot) in known else None,
                       "empty": c is None} for slot, c in zip(lay.slots, cards)],
            "own_turns": s.own_turns[p],
            "locked": p == locked,
        })
    w = s.window
    mine = seat is not None and seat == _turn(s)
    in_power = s.step in (POWER, KING_DECIDE)
    return {
        "ruleset": "corte", "seat": seat, "round": s.round, "phase": s.phase.lower(),
        "step": None if s.step is None else s.step.lower(), "turn": _turn(s), "turn_no": s.turn_no,
        "dealer": s.dealer, "scores": list(s.scores),
        "last_round_scores": None if s.last_scores is None else list(s.last_scores),
        "winners": None if s.winners is None else list(s.winners),
        "players": players, "stock_count": len(s.stock), "discard_count": len(s.pile),
        "discard_top": s.pile[-1] if s.pile else None,
        # Corte draws from the stock only; the card is its drawer's alone
        "held": {"card": s.held if mine else None, "source": "stock"} if s.step == HOLDING else None,
        "window": None if w is None else {"id": w.id, "card": w.card, "won": w.won_by is not None,
                                          "won_by": w.won_by, "final": w.final, "passed": sorted(w.passed)},
        "call": None if s.caller is None else {"seat": s.caller, "kind": "corte"},
        "power": {"rank": s.power} if in_power and s.power is not None else None,
        "extension": {
            "ruleset": "corte", "peeked": sorted(s.peeked),
            "king": None if not in_power or s.king is None else
            {"own_slot": s.king[0], "rival": s.king[1], "rival_slot": s.king[2]},
            "orders": orders.view_orders(s.book, seat),
        },
    }


# ---------------------------------------------------------------- redact


def redact(event: Any, seat: int | None) -> JSON:
    """The event as ``seat`` may see it: private and server-only fields become ``None``; another
    seat's order events are ``None`` as a whole."""
    d = typed(event)
    if isinstance(event, (RoundDealt, StockReshuffled)):
        d["order"] = None
        d["salt"] = None
    elif isinstance(event, (PeekChosen, CardsPeeked)):
        if seat != event.seat:
            d["cards"] = [None] * len(event.cards)
    elif isinstance(event, CardDrawn):
        if seat != event.seat:
            d["card"] = None
    elif isinstance(event, CardDiscarded):
        if seat != event.seat:
            d["placed"] = None
    elif isinstance(event, CardGiven):
        d["card"] = None
    elif isinstance(event, PenaltyCardDealt):
        if not (event.visible_to_owner and seat == event.seat):
            d["card"] = None
    elif isinstance(event, ClaimResolved) and event.outcome != "correct" and (
            event.reveal == "none" or (event.reveal == "snapper_only" and seat != event.actor)):
        # a correctly snapped card lies face up; a wrong or late one is flipped per the option
        d["revealed"] = [None] * len(event.revealed)
    elif isinstance(event, orders.EVENTS):
        return orders.redact(event, seat, d)
    return d
