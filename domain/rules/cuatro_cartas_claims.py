"""4 Cartas: the blind claims (``Match``, ``MatchRival``, ``MatchGroup``) and the final window.

A claim is first checked on public facts only (phase, window, lock, slots: RULES §2.5
rule 1, §5.8); only then is the named card read, and a wrong claim is accepted and
penalised, never refused. Every path emits the same kind of ``ClaimResolved`` event.
"""
from __future__ import annotations

from typing import Any

from domain.cards import rank
from domain.errors import InvalidCommand, Locked, NoWindow, WrongPhase
from domain.messages import Passed
from domain.rules.cuatro_cartas_decide import Emitter, check_final, eligible, end_round, penalty, player, start_power
from domain.rules.cuatro_cartas_model import POWER_RANKS, ClaimResolved, State, WindowWon
from domain.table import Window
from domain.windows import require_window

CLAIM_PHASES = ("TURNS", "FINAL_LAP", "FINAL_WINDOW")
_REVEAL_TO = {"public": "all", "claimant_only": "actor", "none": "nobody"}


def current_window(s: State, seat: int, window_id: int) -> Window:
    """The window a claim may name, or the public refusal (RULES §2.6)."""
    if s.phase == "INITIAL_PEEK":
        raise NoWindow("no window is open during the initial peek")
    if s.phase not in CLAIM_PHASES:
        raise WrongPhase(f"no claims in phase {s.phase}")
    w = require_window(s.window, window_id, in_power=s.step in ("POWER_LOOK", "POWER_SWAP"),
                       passed_by=seat if s.phase == "FINAL_WINDOW" else None, reject_won=True)
    if s.locked(seat):
        raise Locked("the closer's layout is locked: the closer may not match")
    return w


def _own_slot(s: State, seat: int, slot: str) -> None:
    if not s.layouts[seat].is_occupied(slot):
        raise InvalidCommand(f"slot {slot!r} is not an occupied slot of yours")


def match(em: Emitter, seat: int | None, window_id: int, slot: str) -> None:
    s = em.s
    me = player(seat)
    w = current_window(s, me, window_id)
    _own_slot(s, me, slot)
    _judge(em, me, w, "match", ((me, slot),), None)


def match_rival(em: Emitter, seat: int | None, window_id: int, rival: int, rival_slot: str, give_slot: str) -> None:
    s = em.s
    me = player(seat)
    if not s.opts.rival_matching:
        raise InvalidCommand("MatchRival needs the option rival_matching = true")
    w = current_window(s, me, window_id)
    if not 0 <= rival < s.players or rival == me:
        raise InvalidCommand("rival must be another seat")
    if s.locked(rival):
        raise Locked("the closer's layout is locked")
    if not s.layouts[rival].is_occupied(rival_slot):
        raise InvalidCommand(f"slot {rival_slot!r} of seat {rival} is not occupied")
    if not s.layouts[me].is_occupied(give_slot):
        raise InvalidCommand(f"give_slot {give_slot!r} is not an occupied slot of yours")
    _judge(em, me, w, "match_rival", ((rival, rival_slot),), give_slot)


def match_group(em: Emitter, seat: int | None, window_id: int, slots: tuple[str, ...]) -> None:
    s = em.s
    me = player(seat)
    if not s.opts.group_match_all_or_nothing:
        raise InvalidCommand("MatchGroup needs the option group_match_all_or_nothing = true")
    w = current_window(s, me, window_id)
    if not slots or len(set(slots)) != len(slots):
        raise InvalidCommand("name one or more distinct slots")
    for slot in slots:
        _own_slot(s, me, slot)
    ordered = tuple(x for x in s.layouts[me].slots if x in slots)
    _judge(em, me, w, "match_group", tuple((me, x) for x in ordered), None)


def _judge(em: Emitter, me: int, w: Window, kind: str, targets: tuple[tuple[int, str], ...],
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


def pass_final(em: Emitter, seat: int | None, window_id: int) -> None:
    s = em.s
    me = player(seat)
    if s.phase != "FINAL_WINDOW":
        raise WrongPhase("Pass is only for the final window")
    current_window(s, me, window_id)
    if me not in eligible(s):
        raise WrongPhase("you have no claim to pass on")
    em.emit(Passed(me, window_id))
    check_final(em)


def final_window_expired(em: Emitter, seat: int | None, window_id: int) -> None:
    s = em.s
    if seat is not None:
        raise InvalidCommand("FinalWindowExpired is a system command")
    if s.phase != "FINAL_WINDOW":
        raise WrongPhase("there is no final window")
    require_window(s.window, window_id)
    end_round(em, "final_window_expired")
