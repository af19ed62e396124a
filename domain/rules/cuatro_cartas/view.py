"""4 Cartas: what a seat may see (``view``, ``redact``) and may send (``legal_actions``).

Nothing here reads a face-down card except to show it to a seat the notebook says
knows it (``common.memory = notebook``); claim parameters are listed for every
occupied slot, right or wrong.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from domain import orders
from domain.choices import entry, one_of, subset_of
from domain.codec import renamed, typed
from domain.messages import CardDrawn, Draw, Pass, SkipTurn
from domain.rules.cuatro_cartas.claims import ORDER_PHASES
from domain.rules.cuatro_cartas.events import (
    CardsLooked, ClaimResolved, PeekChosen, PenaltyCardDealt, RoundDealt, StockReshuffled,
)
from domain.rules.cuatro_cartas.flow import (
    TURN_PHASES, can_close_instead, can_draw, eligible, look_ends_turn, must_replace, pile_can_supply,
    stock_can_supply, swap_ok,
)
from domain.rules.cuatro_cartas.model import (
    LOOKS, NAME, ChoosePeek, Close, DiscardDrawn, NoSwap, Replace, SkipPower, State,
)

# -- view -----------------------------------------------------------------------------------------


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The common view core (see :mod:`domain.ruleset`) and 4 Cartas' ``extension``."""
    notebook = s.opts.memory == "notebook" and seat is not None
    bit = 1 << seat if notebook and seat is not None else 0
    players = []
    for p, lay in enumerate(s.layouts):
        slots = [{"slot": x, "card": c if c is not None and k & bit else None, "empty": c is None}
                 for x, c, k in zip(lay.slots, lay.cards, s.known[p])]
        players.append({"seat": p, "card_count": len(lay.occupied()), "cards": slots, "own_turns": None,
                        "locked": s.locked(p)})
    held = None
    if s.held is not None:
        held = {"card": s.held if seat == s.turn or s.held_source == "discard" else None,
                "source": s.held_source}
    w = s.window
    window = None if w is None else {"id": w.id, "card": w.card, "won": w.won_by is not None,
                                     "won_by": w.won_by, "final": w.final, "passed": sorted(w.passed)}
    return {
        "ruleset": NAME, "seat": seat, "round": s.round, "phase": s.phase.lower(),
        "step": None if s.step is None else s.step.lower(), "turn": s.turn, "turn_no": s.turn_no,
        "dealer": s.dealer, "scores": list(s.scores),
        "last_round_scores": list(s.last_round) if s.last_round else None,
        "winners": None if s.winners is None else list(s.winners),
        "players": players, "stock_count": len(s.stock), "discard_count": len(s.pile),
        "discard_top": s.pile[-1] if s.pile else None, "held": held, "window": window,
        "call": None if s.closer is None else {"seat": s.closer, "kind": "close"},
        "power": None if s.power is None else {"rank": s.power},
        "extension": {"ruleset": NAME, "rounds": s.opts.rounds, "close_timing": s.opts.close_timing,
                      "peeked": sorted(s.peeked), "orders": orders.view_orders(s.book, seat)},
    }


def awaiting(s: State) -> tuple[int, ...]:
    if s.phase == "INITIAL_PEEK":
        return tuple(p for p in range(s.players) if p not in s.peeked)
    if s.phase in TURN_PHASES and s.turn is not None:
        return (s.turn,)
    if s.phase == "FINAL_WINDOW" and s.window is not None:
        return tuple(p for p in eligible(s) if p not in s.window.passed)
    return ()


def summary(s: State) -> dict[str, Any]:
    return {"round": s.round, "phase": s.phase.lower(), "turn": s.turn, "turn_no": s.turn_no, "dealer": s.dealer,
            "scores": list(s.scores)}


# -- redact ---------------------------------------------------------------------------------------


#: Stored field name -> the name the API presents (the common vocabulary; stored data keeps its names).
PRESENTED_NAMES: dict[str, dict[str, str]] = {
    "PeekChosen": {"automatic": "timed_out"},
    "WindowWon": {"by": "seat"},
    "ClaimResolved": {"revealed_to": "reveal"},
    "RoundScored": {"closer": "caller", "close_outcome": "call_outcome"},
}


def redact(event: Any, seat: int | None) -> dict[str, Any] | None:
    out = _redact(event, seat)
    names = PRESENTED_NAMES.get(type(event).__name__)
    return out if names is None else renamed(out, names)


def _redact(event: Any, seat: int | None) -> dict[str, Any]:
    out = typed(event)
    t = type(event)
    if t is RoundDealt or t is StockReshuffled:
        out["order"] = None
        out["salt"] = None
    elif t is PeekChosen or t is CardsLooked:
        if seat != event.seat:
            out["cards"] = [None] * len(event.cards)
    elif t is CardDrawn:
        if event.source == "stock" and seat != event.seat:
            out["card"] = None
    elif t is PenaltyCardDealt:
        if not (event.visible_to_owner and seat == event.seat):
            out["card"] = None
    elif t is ClaimResolved:
        if not (event.revealed_to == "all" or (event.revealed_to == "actor" and seat == event.actor)):
            out["revealed"] = [None] * len(event.revealed)
    elif t in orders.EVENTS:
        return orders.redact(event, seat, out)  # another seat's order events: nothing
    return out


# -- legal actions --------------------------------------------------------------------------------

#: The fields legal_actions may list with choices (domain.choices), by command type.
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "Look": ("targets", "close"), "Swap": ("a", "b", "close"), "MatchRival": ("rival_slot", "give_slot"),
    "MatchGroup": ("slots",), **orders.CHOICE_FIELDS,
}


def moves(s: State, seat: int) -> list[dict[str, Any]]:
    """The seat's legal actions but for standing orders: what it may play now."""
    if s.phase == "INITIAL_PEEK":
        return [] if seat in s.peeked else [
            typed(ChoosePeek((a, b))) for a, b in combinations(s.layouts[seat].occupied(), 2)]
    out: list[dict[str, Any]] = []
    if s.phase in TURN_PHASES and seat == s.turn:
        out.extend(_turn_actions(s, seat))
    out.extend(_claims(s, seat))
    return out


def legal_actions(s: State, seat: int) -> list[dict[str, Any]]:
    return moves(s, seat) + _orders(s, seat)


def _orders(s: State, seat: int) -> list[dict[str, Any]]:
    """Standing orders, compactly: one ``PlaceOrder`` entry for a ``Match`` on any own slot
    without an order yet, and (``rival_matching``) one per rival for a ``MatchRival`` on any of
    its slots without one, giving any own card (any rank); and one ``CancelOrder`` entry."""
    forms: list[orders.Form] = []
    own = s.layouts[seat].occupied() if s.phase in ORDER_PHASES and not s.locked(seat) else ()
    if own:
        mine = orders.unclaimed(s.book, seat, seat, own)
        if mine:
            forms.append(("Match", {"slot": mine[0]}, {"slot": one_of(mine)}))
        for r, slots in _rivals(s, seat):
            free = orders.unclaimed(s.book, seat, r, slots)
            if free:
                forms.append(("MatchRival", {"rival": r, "rival_slot": free[0], "give_slot": own[0]},
                              {"rival_slot": one_of(free), "give_slot": one_of(own)}))
    return orders.actions(s.book, seat, forms)


def _rivals(s: State, seat: int) -> list[tuple[int, tuple[str, ...]]]:
    """With ``rival_matching``, each rival a ``MatchRival`` may name (not locked, some card)."""
    if not s.opts.rival_matching:
        return []
    return [(r, s.layouts[r].occupied()) for r in range(s.players)
            if r != seat and not s.locked(r) and s.layouts[r].has_cards()]


def _closes(s: State, ends_turn: bool) -> tuple[bool, ...]:
    if s.opts.close_timing == "after_turn" and s.closer is None and ends_turn:
        return (False, True)
    return (False,)


def _turn_actions(s: State, seat: int) -> list[dict[str, Any]]:
    step = s.step
    out: list[Any] = []
    if step == "AWAIT_ACTION":
        if can_close_instead(s):
            out.append(Close())
        if stock_can_supply(s):
            out.append(Draw("stock"))
        if pile_can_supply(s, seat):
            out.append(Draw("discard"))
        if not can_draw(s, seat):
            out.append(SkipTurn())
    elif step == "HOLDING":
        closes = _closes(s, True)
        if not must_replace(s, seat):
            out.extend(DiscardDrawn(c) for c in closes)
        out.extend(Replace(x, c) for x in s.layouts[seat].occupied() for c in closes)
    elif step == "POWER_LOOK":
        assert s.power is not None
        locs = [[p, x] for p in range(s.players) for x in s.layouts[p].occupied()]
        look_closes = _closes(s, look_ends_turn(s))
        # one entry: any set of up to LOOKS cards (none at all is a look too)
        looks = [entry({"type": "Look", "targets": [], "close": look_closes[0]},
                       targets=subset_of(locs, most=LOOKS[s.power]), close=one_of(look_closes))]
        out.extend(SkipPower(c) for c in _closes(s, not s.power_returns))
        return looks + [typed(a) for a in out]
    elif step == "POWER_SWAP":
        closes = _closes(s, not s.power_returns)
        return _swaps(s, seat, closes) + [typed(NoSwap(c)) for c in closes]
    return [typed(a) for a in out]


def _swaps(s: State, seat: int, closes: tuple[bool, ...]) -> list[dict[str, Any]]:
    """One ``Swap`` entry per two seats whose cards may be swapped (any card of each)."""
    seats = [p for p in range(s.players) if not s.locked(p) and s.layouts[p].has_cards()]
    out = []
    for p, q in combinations(seats, 2):
        if swap_ok(s, seat, p, q):
            a = [[p, x] for x in s.layouts[p].occupied()]
            b = [[q, x] for x in s.layouts[q].occupied()]
            out.append(entry({"type": "Swap", "a": a[0], "b": b[0], "close": closes[0]},
                             a=one_of(a), b=one_of(b), close=one_of(closes)))
    return out


def _claims(s: State, seat: int) -> list[dict[str, Any]]:
    """Every claim that passes the public checks, on every occupied slot (no oracle):
    ``Match`` per own slot, one ``MatchRival`` entry per rival and one ``MatchGroup`` entry
    (:mod:`domain.choices`)."""
    w = s.window
    if (w is None or w.won_by is not None or s.locked(seat) or s.step in ("POWER_LOOK", "POWER_SWAP")
            or s.phase not in ("TURNS", "FINAL_LAP", "FINAL_WINDOW")):
        return []
    final = s.phase == "FINAL_WINDOW"
    if final and seat in w.passed:
        return []
    own = s.layouts[seat].occupied()
    if not own:
        return []
    wid = w.id
    out: list[dict[str, Any]] = [{"type": "Match", "window_id": wid, "slot": x} for x in own]
    out += [entry({"type": "MatchRival", "window_id": wid, "rival": r, "rival_slot": slots[0], "give_slot": own[0]},
                  rival_slot=one_of(slots), give_slot=one_of(own)) for r, slots in _rivals(s, seat)]
    if s.opts.group_match_all_or_nothing and len(own) >= 2:
        # any 2 to 4 of one's cards (one card is a Match)
        out.append(entry({"type": "MatchGroup", "window_id": wid, "slots": list(own[:2])},
                         slots=subset_of(own, least=2, most=4)))
    if final:
        out.append(typed(Pass(wid)))
    return out

