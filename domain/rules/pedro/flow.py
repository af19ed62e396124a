"""Pedro: the flow of a round.

Dealing, starting and ending turns, the reveal, scoring, the game-end test and the next
deal. Handlers in :mod:`domain.rules.pedro.decide` call these with an :class:`Emitter`, which
evolves the state as events are emitted so that chains (a call -> reveal -> score -> deal)
read the state they lead to.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import chance, table
from domain.emitter import Emitter as BaseEmitter
from domain.messages import GameStarted, TurnSkipped, TurnStarted
from domain.rules.pedro.evolve import MEMO
from domain.rules.pedro.messages import (
    CallJudged, CardsShown, GameEnded, RoundDealt, RoundRevealed, RoundScored,
)
from domain.rules.pedro.model import (
    NAME, State, resolve,
)
from domain.tiebreak import break_tie


class Emitter(BaseEmitter):
    """Pedro's events of one command: ``em(event)`` folds (and remembers) it and returns the
    state it leads to, so chains can read it. Pedro passes the chance key on its own."""

    __slots__ = ()
    memo = MEMO

    __call__ = BaseEmitter.emit


# --------------------------------------------------------------------------- start and deal


def start(players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
    opts = resolve(options, players)
    em = Emitter(None)
    em(GameStarted(NAME, players, opts, chance.pick(key, "first-dealer", players)))
    deal(em, key, dealer=em.s.dealer, round_no=1, penalty_seat=None)
    return tuple(em.events)


def deal(em: Emitter, key: bytes, dealer: int, round_no: int, penalty_seat: int | None) -> None:
    s = em.s
    cfg = s.cfg
    first = (dealer + cfg.direction) % s.players
    order = table.deal(key, round_no, cfg.pack)
    commit, salt = table.commitment(key, round_no, 0, order)
    em(RoundDealt(round_no, dealer, first, penalty_seat, order[-1], commit, order, salt))
    if cfg.peek_at_deal:
        for seat in range(s.players):
            em(CardsShown(seat, bottom_cards(em.s, seat), "deal"))
    start_turn(em, first, key)


def bottom_cards(s: State, seat: int) -> tuple[tuple[int, str, str], ...]:
    """C and D (and E1 with penalty_card_peekable, if the seat has a penalty card)."""
    lay = s.layouts[seat]
    slots = ["C", "D"] + (["E1"] if s.cfg.penalty_peekable and s.penalty_seat == seat else [])
    return tuple((seat, x, c) for x in slots if lay.has_slot(x) and (c := lay.card(x)) is not None)


# --------------------------------------------------------------------------- turn flow


def can_draw(s: State) -> bool:
    """Is there any card (or, with end_round, a round end) a Draw can reach?"""
    return bool(s.stock) or bool(s.pile) or s.cfg.end_round_on_empty


def stock_can_supply(s: State) -> bool:
    return bool(s.stock) or len(s.pile) > 1


def may_call(s: State, seat: int) -> bool:
    return s.caller is None and s.own_turns[seat] >= s.cfg.min_turns


def start_turn(em: Emitter, seat: int, key: bytes) -> None:
    s = em(TurnStarted(seat, em.s.turn_no + 1))
    if not can_draw(s) and not may_call(s, seat):
        em(TurnSkipped(seat, "no_card"))
        end_turn(em, key)


def end_turn(em: Emitter, key: bytes) -> None:
    s = em.s
    assert s.turn is not None
    if s.cfg.turn_limit is not None and s.turns_done >= s.cfg.turn_limit:
        return end_round(em, key, "turn_limit")
    if s.skip_streak >= s.players:
        return end_round(em, key, "no_card")
    nxt = (s.turn + s.cfg.direction) % s.players
    if s.caller is not None:
        if not s.cfg.final_lap or nxt == s.caller:
            return end_round(em, key, "call")
    start_turn(em, nxt, key)


def end_round(em: Emitter, key: bytes, reason: str) -> None:
    s = em.s
    cfg, n = s.cfg, s.players
    totals = tuple(lay.total(cfg.values.__getitem__) for lay in s.layouts)
    orders = tuple({"shuffle_no": k, "order": o, "salt": salt, "commitment": c} for k, o, salt, c in s.orders)
    em(RoundRevealed(s.round, reason, tuple(tuple(zip(l.slots, l.cards)) for l in s.layouts), totals, orders))
    caller = s.caller if reason != "stock_exhausted" else None
    caller_won: bool | None = None
    scores = list(totals)
    if caller is not None:
        caller_won = all(totals[caller] < totals[j] for j in range(n) if j != caller)
        em(CallJudged(caller, totals, "won" if caller_won else "lost", "RULES §3.6", _call_sentence(caller, totals,
                                                                                                caller_won)))
        if caller_won and cfg.caller_zero:
            scores[caller] = 0
    if caller_won:
        winners: tuple[int, ...] = (caller,)  # type: ignore[assignment]
    else:
        pool = [j for j in range(n) if j != caller]
        low = min(totals[j] for j in pool)
        winners = tuple(j for j in pool if totals[j] == low)
    cumulative = tuple(a + b for a, b in zip(s.scores, scores))
    wins = tuple(w + (1 if i in winners else 0) for i, w in enumerate(s.round_wins))
    penalty = caller if caller_won is False else None
    s = em(RoundScored(s.round, reason, caller, caller_won, totals, tuple(scores), cumulative, winners, wins,
                       penalty))
    result = game_result(s)
    if result is not None:
        em(GameEnded(result, s.scores, cfg.match_mode))
        return
    deal(em, key, dealer=(s.dealer + cfg.direction) % n, round_no=s.round + 1, penalty_seat=penalty)


def _call_sentence(caller: int, totals: tuple[int, ...], won: bool) -> str:
    others = ", ".join(f"seat {j}: {t}" for j, t in enumerate(totals) if j != caller)
    verdict = "is strictly lowest, so the call wins" if won else "is not strictly lowest (a tie loses), so the " \
        "call loses and the caller gets a penalty card next round"
    return f"Seat {caller} called Pedro with {totals[caller]} points against {others}; that {verdict}."


def game_result(s: State) -> tuple[int, ...] | None:
    """The winners if the game is over, else None."""
    cfg, n = s.cfg, s.players
    if cfg.match_mode == "points":
        done = max(s.scores) >= cfg.target_score
    elif cfg.match_mode == "rounds":
        done = s.round >= cfg.rounds
    else:
        done = max(s.round_wins) >= cfg.round_wins_target
    if not done:
        return None
    if cfg.match_mode == "round_wins":
        best = max(s.round_wins)
        tied = [i for i in range(n) if s.round_wins[i] == best]
    else:
        best = min(s.scores)
        tied = [i for i in range(n) if s.scores[i] == best]
    return break_tie(tied, s.last_round or (0,) * n, cfg.tiebreak)
