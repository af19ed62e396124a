"""Least Score: ``evolve(state, event) -> state``. It never validates (decide did)."""
from __future__ import annotations

from typing import Any

from domain.frozen import fast_replace as replace
from domain.messages import GameStarted
from domain.rules.least_score.model import (
    CallMade, GameEnded, LeastState, Opts, PlayerEliminated, RoundDealt, RoundRevealed, RoundScored, SetPlayed,
    StockReshuffled, TiebreakRound,
)
from domain.rules.least_score.scoring import clockwise
from domain.rules.least_score.sets import sort_key


def evolve(state: LeastState | None, event: Any) -> LeastState:
    if isinstance(event, SetPlayed):
        assert state is not None
        return _evolve_played(state, event)
    if isinstance(event, GameStarted):
        return LeastState(players=event.players, opts=Opts.of(event.options, event.players),
                          options=event.options, first_dealer=event.first_dealer,
                          scores=(0,) * event.players)
    assert state is not None
    if isinstance(event, RoundDealt):
        n = state.players
        return replace(
            state, round=event.round, phase="turns", dealer=event.dealer, starter=event.starter,
            turn=event.starter, turn_no=0, seated=event.seated, hands=event.hands, known=((),) * n,
            turns_done=(0,) * n, open_set=(event.upcard,) if event.upcard else (),
            open_kind="single" if event.upcard else None, open_from=None, dead=(), stock=event.stock,
            orders=((0, event.order, event.salt, event.commitment),))
    if isinstance(event, StockReshuffled):
        return replace(state, stock=event.order, dead=(),
                       orders=state.orders + ((event.shuffle_no, event.order, event.salt, event.commitment),))
    if isinstance(event, CallMade):
        return replace(state, phase="reveal", turn=None)
    if isinstance(event, RoundRevealed):
        return replace(state, phase="reveal", turn=None)
    if isinstance(event, RoundScored):
        return replace(state, scores=event.cumulative, last_round=event.round_scores)
    if isinstance(event, PlayerEliminated):
        return replace(state, eliminated=state.eliminated + (event.seat,))
    if isinstance(event, TiebreakRound):
        return replace(state, playoff=True,
                       eliminated=tuple(p for p in state.eliminated if p not in event.seats))
    if isinstance(event, GameEnded):
        return replace(state, phase="over", turn=None, winners=event.winners)
    raise TypeError(f"unknown event {type(event).__name__}")


def _evolve_played(state: LeastState, e: SetPlayed) -> LeastState:
    seat = e.seat
    card = e.card
    assert card is not None
    hand = remove_cards(state.hands[seat], e.discard)
    assert hand is not None
    known = state.known[seat]
    if known:
        known = _minus(known, e.discard)
    if e.take != "stock":
        known = tuple(sorted(known + (card,), key=sort_key))
    hands = list(state.hands)
    hands[seat] = hand + (card,)
    knowns = list(state.known)
    knowns[seat] = known
    done = list(state.turns_done)
    done[seat] += 1
    return replace(
        state, turn=clockwise(seat, state.players, state.seated), turn_no=e.turn_no, hands=tuple(hands),
        known=tuple(knowns), turns_done=tuple(done), open_set=e.open_set, open_kind=e.kind, open_from=seat,
        dead=state.dead + e.dead, stock=state.stock[1:] if e.take == "stock" else state.stock)


def _minus(cards: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    rest = list(cards)
    for c in gone:
        if c in rest:
            rest.remove(c)
    return tuple(rest)


def remove_cards(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...] | None:
    """``hand`` minus the multiset ``cards``, or None if a card is missing."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)
