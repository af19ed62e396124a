"""Least Score: ``start`` and ``decide(state, seat, command, key) -> events``.

The end of a round (reveal, judged declaration, elimination, next deal) is in
:mod:`domain.rules.least_score.scoring`; the rules are in the package docstring.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import chance, table
from domain.errors import InvalidCommand, NotYourTurn, WrongPhase
from domain.messages import GameStarted, TurnTimedOut
from domain.rules.least_score.evolve import evolve, remove_cards
from domain.rules.least_score.model import (
    NAME, CallMade, Declare, LeastState, Opts, Play, SetPlayed, StockReshuffled, resolve,
)
from domain.rules.least_score.scoring import after_round, clockwise, deal, judge, reveal
from domain.rules.least_score.sets import classify_cached, sort_key, timeout_key
from domain.rules.least_score.view import check_declare, open_takeable


def start(players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
    resolved = resolve(options, players)
    opts = Opts.of(resolved, players)
    dealer = chance.pick(key, "first-dealer", players)
    seated = tuple(range(players))
    first = deal(players, opts, 1, dealer, clockwise(dealer, players, seated), seated, key)
    return (GameStarted(NAME, players, resolved, dealer), first)


def decide(state: LeastState, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
    if state.phase != "turns":
        raise WrongPhase("the game is over")
    if isinstance(command, TurnTimedOut):
        if seat is not None:
            raise InvalidCommand("TurnTimedOut is a system command")
        if command.seat != state.turn or command.turn_no != state.turn_no + 1:
            raise WrongPhase("that turn is no longer current")
        return _auto_play(state, key)
    if seat is None:
        raise InvalidCommand("a player command needs a seat")
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn")
    if isinstance(command, Play):
        return _play(state, seat, command.discard, command.take, key, False)
    if isinstance(command, Declare):
        return _declare(state, seat, key)
    raise InvalidCommand(f"unknown command {type(command).__name__}")


def _declare(state: LeastState, seat: int, key: bytes) -> tuple[Any, ...]:
    problem = check_declare(state, seat)
    if problem:
        raise InvalidCommand(problem)
    call = CallMade(seat, "declare", state.turn_no + 1)
    return (call,) + _end_round(state, seat, key)


def _end_round(state: LeastState, declarer: int | None, key: bytes) -> tuple[Any, ...]:
    scored, winner = judge(state, declarer)
    return (reveal(state), scored, *after_round(state, scored, winner, key))


def _play(state: LeastState, seat: int, discard: tuple[str, ...], take: str, key: bytes,
          timed_out: bool) -> tuple[Any, ...]:
    if not discard:
        raise InvalidCommand("discard at least one card")
    # Anything that is not a card of the hand (including a malformed code) fails here.
    if remove_cards(state.hands[seat], discard) is None:
        raise InvalidCommand("you can only discard cards from your hand")
    judged = classify_cached(discard if len(discard) == 1 else tuple(sorted(discard, key=sort_key)),
                             state.opts.sets)
    if judged is None:
        raise InvalidCommand(f"{list(discard)} is not a legal set")
    kind, arranged = judged
    events: list[Any] = []
    if take == "stock":
        stock = state.stock
        if not stock:
            if not state.dead:
                raise InvalidCommand("neither the stock nor the dead pile holds a card")
            shuffle_no = len(state.orders)
            order = table.reshuffle(key, state.round, shuffle_no, state.dead)
            commitment, salt = table.commitment(key, state.round, shuffle_no, order)
            events.append(StockReshuffled(state.round, shuffle_no, len(order), commitment, order, salt))
            stock = order
        card = stock[0]
        dead = state.open_set
    elif take.startswith("open:"):
        card = take[5:]
        if card not in open_takeable(state):
            raise InvalidCommand(f"{card} cannot be taken from the open set {list(state.open_set)}")
        dead = remove_cards(state.open_set, (card,)) or ()
    else:
        raise InvalidCommand('take is "stock" or "open:<card>"')
    played = SetPlayed(seat, state.turn_no + 1, discard, kind, arranged, take, card, dead, timed_out)
    events.append(played)
    limit = state.opts.round_turn_limit
    if limit is not None and state.turn_no + 1 >= limit:
        after = state
        for e in events:
            after = evolve(after, e)
        events += _end_round(after, None, key)
    return tuple(events)


def _auto_play(state: LeastState, key: bytes) -> tuple[Any, ...]:
    seat = state.turn
    assert seat is not None
    card = max(state.hands[seat], key=timeout_key)
    take = "stock" if state.stock or state.dead else "open:" + open_takeable(state)[0]
    return _play(state, seat, (card,), take, key, True)
