"""4 Cartas: the blind claims (``Match``, ``MatchRival``, ``MatchGroup``), standing orders and
the final window.

A claim is first checked on public facts only (phase, window, lock, slots:
:func:`check_claim`); only then is the named card read (:func:`judge`), and a wrong claim is
accepted and penalised, never refused. Every path emits the same kind of ``ClaimResolved``
event. A standing order (:mod:`domain.orders`) is placed on the same checks but the window's,
and when it fires it goes through the same two functions.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import orders
from domain.cards import rank
from domain.errors import InvalidCommand, Locked, NoWindow, WrongPhase
from domain.messages import Passed
from domain.moments import no_turn
from domain.orders import PlaceOrder
from domain.rules.cuatro_cartas import flow
from domain.rules.cuatro_cartas.events import ClaimResolved, WindowWon
from domain.rules.cuatro_cartas.flow import check_final, eligible, end_round, penalty
from domain.rules.cuatro_cartas.model import ORDER_CLAIMS, POWER_RANKS, Match, MatchGroup, MatchRival, State
from domain.rules.cuatro_cartas.turn import player, start_power
from domain.table import Window
from domain.windows import require_window

CLAIM_PHASES = ("TURNS", "FINAL_LAP", "FINAL_WINDOW")
ORDER_PHASES = ("INITIAL_PEEK", "TURNS", "FINAL_LAP")  # while windows may still open this round
_REVEAL_TO = {"public": "all", "claimant_only": "actor", "none": "nobody"}
Targets = tuple[tuple[int, str], ...]
Judged = tuple[Window, str, Targets, "str | None"]  # what judge needs: window, kind, targets, give_slot


class Emitter(flow.Emitter):
    """The emitter of ``decide``: it also fires the standing orders of a window as it opens."""

    __slots__ = ()

    def window_opened(self, first: int) -> None:
        orders.fire(self, first, 1, check_claim, judge)


def current_window(s: State, seat: int, window_id: int) -> Window:
    """The window a claim may name, or the public refusal."""
    if s.phase == "INITIAL_PEEK":
        raise NoWindow("no window is open during the initial peek")
    if s.phase not in CLAIM_PHASES:
        raise no_turn(s.phase, "no claim can be made now")
    w = require_window(s.window, window_id, in_power=s.step in ("POWER_LOOK", "POWER_SWAP"),
                       passed_by=seat if s.phase == "FINAL_WINDOW" else None, reject_won=True)
    _unlocked(s, seat)
    return w


def _unlocked(s: State, seat: int) -> None:
    if s.locked(seat):
        raise Locked("the closer's layout is locked: the closer may not match")


def _own_slot(s: State, seat: int, slot: str) -> None:
    if not s.layouts[seat].is_occupied(slot):
        raise InvalidCommand(f"slot {slot!r} is not an occupied slot of yours")


def _match(s: State, me: int, c: Match) -> tuple[str, Targets, str | None]:
    _own_slot(s, me, c.slot)
    return "match", ((me, c.slot),), None


def _match_rival(s: State, me: int, c: MatchRival) -> tuple[str, Targets, str | None]:
    if not 0 <= c.rival < s.players or c.rival == me:
        raise InvalidCommand("rival must be another seat")
    if s.locked(c.rival):
        raise Locked("the closer's layout is locked")
    if not s.layouts[c.rival].is_occupied(c.rival_slot):
        raise InvalidCommand(f"slot {c.rival_slot!r} of seat {c.rival} is not occupied")
    if not s.layouts[me].is_occupied(c.give_slot):
        raise InvalidCommand(f"give_slot {c.give_slot!r} is not an occupied slot of yours")
    return "match_rival", ((c.rival, c.rival_slot),), c.give_slot


def _match_group(s: State, me: int, c: MatchGroup) -> tuple[str, Targets, str | None]:
    if not c.slots or len(set(c.slots)) != len(c.slots):
        raise InvalidCommand("name one or more distinct slots")
    for slot in c.slots:
        _own_slot(s, me, slot)
    ordered = tuple(x for x in s.layouts[me].slots if x in c.slots)
    return "match_group", tuple((me, x) for x in ordered), None


# Each claim's checks of its own slots, and the option it needs (checked before anything else).
_TARGETS: dict[type, tuple[str | None, Callable[[State, int, Any], tuple[str, Targets, str | None]]]] = {
    Match: (None, _match), MatchRival: ("rival_matching", _match_rival),
    MatchGroup: ("group_match_all_or_nothing", _match_group),
}


def _needs_option(s: State, c: Any) -> Callable[[State, int, Any], tuple[str, Targets, str | None]]:
    option, targets = _TARGETS[type(c)]
    if option is not None and not getattr(s.opts, option):
        raise InvalidCommand(f"{type(c).__name__} needs the option {option} = true")
    return targets


def check_claim(s: State, me: int, c: Match | MatchRival | MatchGroup) -> Judged:
    """Every public check of a claim, in the order a refusal is chosen; then what judge needs."""
    targets = _needs_option(s, c)
    w = current_window(s, me, c.window_id)
    return (w, *targets(s, me, c))


def claim(em: flow.Emitter, seat: int | None, c: Match | MatchRival | MatchGroup) -> None:
    me = player(seat)
    judge(em, me, check_claim(em.s, me, c))


def check_order(s: State, me: int, c: Match | MatchRival) -> None:
    """The public checks of a standing order for the claim ``c``: the claim's own but the window's."""
    targets = _needs_option(s, c)
    if s.phase not in ORDER_PHASES:
        raise WrongPhase("orders are for the windows still to open in this round")
    _unlocked(s, me)
    targets(s, me, c)


def place_order(em: flow.Emitter, seat: int | None, c: PlaceOrder) -> None:
    orders.place(em, player(seat), c, ORDER_CLAIMS, check_order)


def judge(em: flow.Emitter, me: int, judged: Judged) -> None:
    """Every public check passed (:func:`check_claim`): read the named cards and resolve the claim."""
    _judge(em, me, *judged)


def _judge(em: flow.Emitter, me: int, w: Window, kind: str, targets: tuple[tuple[int, str], ...],
           give_slot: str | None) -> None:
    """Read the named cards (every public check has passed) and resolve the claim."""
    s = em.s
    o = s.opts
    cards = tuple(s.layouts[owner].card(slot) or "" for owner, slot in targets)
    want = rank(w.card)
    correct = all(rank(c) == want for c in cards)
    reveal = "all" if correct else _REVEAL_TO[o.failed_match_reveal]
    applied: dict[str, Any] = {
        "failed_match_reveal": o.failed_match_reveal, "single_match_per_discard": o.single_match_per_discard,
        "penalty_placement": o.penalty_placement, "penalty_card_visible_to_owner": o.penalty_card_visible_to_owner,
        "in_turn_match_power": o.in_turn_match_power,
    }
    if kind == "match_rival":
        applied["rival_matching"] = True
    if kind == "match_group":
        applied["group_match_all_or_nothing"] = True
    where = ", ".join(f"seat {p} slot {x}" for p, x in targets)
    if correct:
        why = f"Seat {me} matched the {w.card} with {where}: correct, the card is discarded and the slot is empty."
        if give_slot is not None:
            why = why[:-1] + f", then refilled with seat {me}'s {give_slot} card."
    else:
        why = (f"Seat {me} claimed {where} had the rank of the {w.card}: wrong, the card stays "
               f"(revealed to {reveal}) and seat {me} takes one penalty card.")
    em.emit(ClaimResolved(kind, me, w.id, w.card, targets, "correct" if correct else "wrong", cards, reveal,
                          give_slot, "RULES §5.3", applied, why))
    if not correct:
        penalty(em, me)
    else:
        if o.single_match_per_discard:
            em.emit(WindowWon(w.id, me))
        if (o.in_turn_match_power and kind != "match_rival" and me == s.turn and s.step == "AWAIT_ACTION"
                and want in POWER_RANKS):
            start_power(em, want, False, returns=True)
    check_final(em)


def pass_final(em: flow.Emitter, seat: int | None, window_id: int) -> None:
    s = em.s
    me = player(seat)
    if s.phase != "FINAL_WINDOW":
        raise WrongPhase("Pass is only for the final window")
    current_window(s, me, window_id)
    if me not in eligible(s):
        raise WrongPhase("you have no claim to pass on")
    em.emit(Passed(me, window_id))
    check_final(em)


def final_window_expired(em: flow.Emitter, seat: int | None, window_id: int) -> None:
    s = em.s
    if seat is not None:
        raise InvalidCommand("FinalWindowExpired is a system command")
    if s.phase != "FINAL_WINDOW":
        raise WrongPhase("there is no final window")
    require_window(s.window, window_id)
    end_round(em, "final_window_expired")
