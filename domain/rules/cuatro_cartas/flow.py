"""4 Cartas: the round flow that several commands share, and the public predicates.

Every event of a command goes through :class:`Emitter`, which folds each one at once so that
the flow (start and deal, end of turn, final lap, final window, reveal, scores, next deal)
reads the state it made. The turn commands that lead here are in
:mod:`domain.rules.cuatro_cartas.turn`, the matches (blind claims) in
:mod:`domain.rules.cuatro_cartas.claims`; the predicates below are shared with
``legal_actions`` (:mod:`domain.rules.cuatro_cartas.view`).
"""
from __future__ import annotations

from typing import Any

from domain import chance, orders, table
from domain.cards import french_pack
from domain.messages import CardsSwapped, GameEnded, GameStarted, TurnSkipped, TurnStarted, WindowClosed, WindowOpened
from domain.rules.cuatro_cartas.events import (
    CallMade, CardReplaced, ClaimResolved, FinalWindowOpened, PenaltyCardDealt, PenaltySkipped, RoundDealt,
    RoundRevealed, RoundScored, StockReshuffled,
)
from domain.rules.cuatro_cartas.evolve import MEMO, evolve
from domain.rules.cuatro_cartas.model import BASE_SLOTS_N, NAME, State, closer_score, layout_total
from domain.table import next_seat
from domain.tiebreak import break_tie

TURN_PHASES = ("TURNS", "FINAL_LAP")


def _claimed(e: ClaimResolved) -> tuple[tuple[int, str], ...]:
    if e.outcome != "correct":
        return ()
    gave = ((e.actor, e.give_slot),) if e.kind == "match_rival" and e.give_slot is not None else ()
    return tuple((p, x) for p, x in e.targets) + gave


# The slots whose card each event changes: the standing orders naming them are cancelled.
_MOVES: dict[type, Any] = {
    CardReplaced: lambda e: ((e.seat, e.slot),),
    CardsSwapped: lambda e: (tuple(e.a), tuple(e.b)),
    ClaimResolved: _claimed,
    PenaltyCardDealt: lambda e: ((e.seat, e.slot),),
}


class Emitter(orders.OrderEmitter):
    """4 Cartas' events of one command, folded (and remembered) as they are emitted (decide's
    own, which also fires the standing orders, is :class:`domain.rules.cuatro_cartas.claims.Emitter`)."""

    __slots__ = ()
    memo = MEMO
    hooks = orders.cancelling(_MOVES)


# -- start and deal ------------------------------------------------------------------------


def start_events(players: int, options: dict[str, Any], key: bytes) -> tuple[Any, ...]:
    first = chance.pick(key, "first-dealer", players)
    started = GameStarted(NAME, players, dict(options), first)
    em = Emitter(evolve(None, started), key)
    em.events.append(started)
    deal(em, 1)
    return tuple(em.events)


def deal(em: Emitter, round_no: int) -> None:
    s = em.s
    dealer = (s.first_dealer + round_no - 1) % s.players
    order = table.deal(em.key, round_no, french_pack())
    commit, salt = table.commitment(em.key, round_no, 0, order)
    em.emit(RoundDealt(round_no, dealer, (dealer + 1) % s.players, order[BASE_SLOTS_N * s.players], commit,
                       order, salt))


# -- public predicates (shared with legal_actions) -----------------------------------------


def stock_can_supply(s: State) -> bool:
    """Draw{stock} is possible: a card, a reshuffle, or (end_round) the end of the round."""
    return bool(s.stock) or s.opts.stock_exhausted == "end_round" or len(s.pile) >= 2


def pile_can_supply(s: State, seat: int) -> bool:
    """Draw{discard}: a pile card, which the seat can then get rid of."""
    return bool(s.pile) and (s.opts.allow_rediscard or s.layouts[seat].has_cards())


def can_draw(s: State, seat: int) -> bool:
    return stock_can_supply(s) or pile_can_supply(s, seat)


def can_close_instead(s: State) -> bool:
    return s.opts.close_timing == "instead_of_turn" and s.closer is None


def must_replace(s: State, seat: int) -> bool:
    """``allow_rediscard = false`` and a pile card held: only Replace (unless no slot is left)."""
    return not s.opts.allow_rediscard and s.held_source == "discard" and s.layouts[seat].has_cards()


def swap_ok(s: State, seat: int, p: int, q: int) -> bool:
    """Whether the K/J power of ``seat`` may swap a card of seat ``p`` with one of seat ``q``."""
    return (p != q and not s.locked(p) and not s.locked(q)
            and (not s.opts.swap_must_include_own or seat in (p, q)))


def any_occupied(s: State) -> bool:
    return any(lay.has_cards() for lay in s.layouts)


def any_swap(s: State, seat: int) -> bool:
    """Whether some legal K/J swap exists (cheaper than listing them)."""
    free = [p for p in range(s.players) if not s.locked(p) and s.layouts[p].has_cards()]
    if s.opts.swap_must_include_own:
        return seat in free and len(free) >= 2
    return len(free) >= 2


def look_ends_turn(s: State) -> bool:
    return not s.power_returns and (s.power == "Q" or not any_swap(s, s.turn or 0))


def eligible(s: State) -> tuple[int, ...]:
    """Seats offered a claim on the final window: unlocked, with a card."""
    return tuple(p for p in range(s.players) if not s.locked(p) and s.layouts[p].has_cards())


# -- flow ------------------------------------------------------------------------------------------


def finish_turn(em: Emitter, close_flag: bool) -> None:
    """The turn's discard is on top (powers done): open its window (its orders fire), then the
    call, then move on."""
    s = em.s
    em.emit(WindowOpened(s.last_window_id + 1, s.pile[-1]))
    assert s.turn is not None
    em.window_opened(next_seat(s.turn, s.players, 1))
    if (close_flag or s.close_pending) and s.closer is None and s.turn is not None:
        em.emit(CallMade(s.turn, "fechei", "after_turn"))
    after_turn(em)


def round_over_after_turn(em: Emitter) -> bool:
    s = em.s
    limit = s.opts.round_turn_limit
    if limit is not None and s.turn_no >= limit:
        end_round(em, "turn_limit")
        return True
    if s.skip_run >= s.players:
        end_round(em, "all_skipped")
        return True
    return False


def after_turn(em: Emitter) -> None:
    if round_over_after_turn(em):
        return
    assert em.s.turn is not None
    next_turn(em, next_seat(em.s.turn, em.s.players, 1))


def next_turn(em: Emitter, seat: int) -> None:
    """Give ``seat`` its turn; automatic closes and skips chain on."""
    while True:
        s = em.s
        if s.closer is not None and seat == s.closer:
            final_window(em)
            return
        em.emit(TurnStarted(seat, s.turn_no + 1))
        s = em.s
        if s.opts.auto_close_when_empty and s.closer is None and not s.layouts[seat].has_cards():
            em.emit(CallMade(seat, "fechei", "automatic"))
        elif not can_draw(s, seat) and not can_close_instead(s):
            em.emit(TurnSkipped(seat, "no_card"))
        else:
            return
        if round_over_after_turn(em):
            return
        seat = next_seat(seat, s.players, 1)


def final_window(em: Emitter) -> None:
    """The turn would return to the closer: the current window becomes F, or the reveal."""
    w = em.s.window
    if w is None or w.won_by is not None:
        end_round(em, "no_window")
        return
    em.emit(FinalWindowOpened(w.id, eligible(em.s)))
    check_final(em)


def check_final(em: Emitter) -> None:
    """F ends once won, or once every eligible seat has passed."""
    s = em.s
    if s.phase != "FINAL_WINDOW" or s.window is None:
        return
    if s.window.won_by is not None or all(p in s.window.passed for p in eligible(s)):
        end_round(em, "final_window")


def begin_turns(em: Emitter) -> None:
    """Every peek is chosen: W0 opens on the up-card, then the first turn; W0's orders fire once
    that turn has started (claims are taken from then on), from the first player on."""
    s = em.s
    em.emit(WindowOpened(s.last_window_id + 1, s.pile[-1]))
    next_turn(em, (s.dealer + 1) % s.players)
    em.window_opened((s.dealer + 1) % s.players)


def reshuffle(em: Emitter) -> bool:
    """A card on the stock, reshuffling the pile under its top if needed."""
    s = em.s
    if s.stock:
        return True
    rest = s.pile[:-1]
    if s.opts.stock_exhausted == "end_round" or not rest:
        return False
    k = s.shuffle_no + 1
    order = table.reshuffle(em.key, s.round, k, rest)
    commit, salt = table.commitment(em.key, s.round, k, order)
    em.emit(StockReshuffled(s.round, k, commit, order, salt))
    return True


def penalty(em: Emitter, seat: int) -> None:
    """One unseen penalty card from the stock; skipped if there is none."""
    if not reshuffle(em):
        em.emit(PenaltySkipped(seat, "no card in the stock"))
        return
    s = em.s
    lay = s.layouts[seat]
    empty = lay.empty()
    slot = empty[0] if s.opts.penalty_placement == "empty_slot_first" and empty else lay.next_extra_slot()
    em.emit(PenaltyCardDealt(seat, slot, s.stock[0], s.opts.penalty_card_visible_to_owner))


# -- end of round and game ---------------------------------------------------------------------


def end_round(em: Emitter, reason: str) -> None:
    if em.s.window is not None:
        em.emit(WindowClosed(em.s.window.id, "final"))
    orders.close_round(em)
    s = em.s
    shuffles = tuple({"shuffle_no": k, "order": list(o), "salt": salt, "commitment": c} for k, o, salt, c in s.orders)
    em.emit(RoundRevealed(s.round, reason, tuple(tuple(zip(l.slots, l.cards)) for l in s.layouts), shuffles))
    em.emit(score_round(s, reason))
    s = em.s
    if s.round >= s.opts.rounds:
        winners, why = game_winners(s)
        if winners:
            em.emit(GameEnded(winners, s.scores, why))
            return
    deal(em, s.round + 1)


def score_round(s: State, reason: str) -> RoundScored:
    o = s.opts
    totals = tuple(layout_total(lay.present(), o.eight_rule) for lay in s.layouts)
    scores = list(totals)
    c, outcome = s.closer, None
    applied: dict[str, Any] = {"eight_rule": o.eight_rule}
    if c is None:
        why = "Nobody closed: every player scores their own total."
    elif reason == "stock_exhausted":
        outcome = "not_judged"
        why = f"The stock ran out (stock_exhausted = end_round): seat {c} closed but scores its total, unjudged."
        applied["common.stock_exhausted"] = o.stock_exhausted
    else:
        others = [t for p, t in enumerate(totals) if p != c]
        scores[c], outcome = closer_score(totals[c], others, o.failed_close_negative)
        applied["failed_close_negative"] = o.failed_close_negative
        if outcome == "succeeded":
            why = f"Seat {c} closed with {totals[c]}, strictly the lowest total, and scores it."
        else:
            why = (f"Seat {c} closed with {totals[c]}, but another player has {min(others)} or less: "
                   f"the close failed and scores {scores[c]}.")
    cumulative = tuple(a + b for a, b in zip(s.scores, scores))
    return RoundScored(s.round, totals, tuple(scores), cumulative, c, outcome, "RULES §5.6", applied, why)


def game_winners(s: State) -> tuple[tuple[int, ...], str]:
    """Winners after the last round, or () to play another round."""
    low = min(s.scores)
    tied = tuple(p for p, v in enumerate(s.scores) if v == low)
    if len(tied) == 1:
        return tied, f"Seat {tied[0]} has the lowest cumulative score, {low}."
    won = break_tie(tied, s.last_round, s.opts.tiebreak)
    if won is None:
        return (), ""
    if len(won) == 1:
        return won, f"Tie at {low} broken by the last round: seat {won[0]} scored fewest points."
    return won, f"Seats {list(won)} share the win with {low} points."
