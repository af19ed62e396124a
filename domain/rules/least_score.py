"""Least Score (RULES §4): a Yaniv relative with sets, open cards and a declaration.

The rules, as played here
-------------------------
* 2–10 players, one 52-card pack, two from 7 players (``common.decks``); A = 1,
  2–10 face value, J Q K = 10; ``jokers`` (0 or 2 per pack) are worth 0.
* Each deal: 5 cards to each seated player, private to their owner (counts public);
  one up-card is the first **open set** (``initial_upcard``). The dealer rotates
  clockwise and the next seat starts (``round_starter``).
* A turn is one atomic ``Play{discard, take}``: discard a legal set of own cards
  (§4.4, see ``least_score_sets``) and take either the top of the stock or one card of
  the open set (the previous player's discards). The discards become the new open
  set; the untaken rest goes dead. An illegal set, cards not in the hand or an open
  card that is not there are refused with 422: the hand is the player's own knowledge.
* ``Declare`` replaces a play, from the second own turn of the deal
  (``no_declare_first_lap``) and under ``max_declare_total`` when set. It is a blind
  claim: never refused for being wrong. Success (D below every other total; a tie is
  false unless ``declare_tie_is_false = false``): declarer 0, others T − D. False:
  declarer 20 + (D − m), others 0.
* A cumulative score above (``eliminate_at``) the ``elimination_threshold`` eliminates
  a player after the round; play goes on until one player is left
  (``end_on_first_elimination`` stops at the first elimination). If everyone left
  goes out together, the lowest cumulative score wins, ties by ``common.tiebreak``.
* Stock exhaustion (§4.7): a stock take from an empty stock first reshuffles the dead
  pile (cards dead before this command) into a new stock (``StockReshuffled``); if
  that is empty too, ``take: stock`` is refused with 422.
* ``TurnTimedOut`` (§2.11): the highest-value single is discarded (ties: higher
  rank, then ♠ ♥ ♦ ♣) and the stock taken, or the first open card if the stock
  cannot supply one. Never a declaration.

Commands (JSON)
---------------
* ``{"type": "Play", "discard": ["7S", "8H", "9D"], "take": "stock" | "open:8H"}``
* ``{"type": "Declare"}``
* ``{"type": "TurnTimedOut", "seat": 2, "turn_no": 7}`` (system only, seat ``None``)

Events: ``GameStarted``, ``RoundDealt`` (order, stock and salt server-only, each hand
private), ``StockReshuffled`` (order and salt server-only), ``SetPlayed`` (a stock
card private to the player), ``CallMade``, ``RoundRevealed`` (all hands and shuffles
with salts), ``RoundScored`` (the judged declaration: outcome, rule, options applied,
explanation), ``PlayerEliminated``, ``TiebreakRound``, ``GameEnded``.

Decisions where RULES.md is silent
----------------------------------
* The deal hands out ``order`` in blocks of 5 from the starter clockwise, then the
  up-card; the rest is the stock, top first.
* ``common.memory = notebook``: a seat's view lists, for every other player, the cards
  that player took from an open set and surely still holds (the multiset of taken
  cards minus every card of the same code they discarded since). ``strict``: nothing
  but the seat's own hand and the open set.
* ``common.round_turn_limit``: the round ends after that many turns, with no
  declarer; everyone scores their own total (§2.7), and the round "winner" (for
  ``previous_round_winner``) is the lowest total, first in turn order from the starter.
* ``previous_round_winner``: if that seat was eliminated, the deal rotates as usual.
* ``common.tiebreak = play_another_round``: only the tied players play on, without
  elimination, until one round ends with a single lowest cumulative score.
* ``TurnTimedOut.turn_no`` is the 1-based number of the current turn of the round.
* ``end_on_first_elimination``: a tie among the players left is broken by
  ``common.tiebreak`` as well.
* Two copies of a card (two packs) may be a pair; how jokers and straight flushes
  behave in sets is written in ``least_score_sets``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import chance, codec, table
from domain.frozen import fast_replace as replace
from domain.cards import french_pack, packs
from domain.errors import InvalidCommand, NotYourTurn, WrongPhase
from domain.messages import GameStarted, TurnTimedOut
from domain.rules import least_score_view as _view
from domain.rules.least_score_model import (
    COMMAND_TYPES, EVENT_TYPES, OPTIONS, CallMade, Declare, GameEnded, LeastState, Opts, Play,
    PlayerEliminated, RoundDealt, RoundRevealed, RoundScored, SetPlayed, StockReshuffled, TiebreakRound,
    resolve,
)
from domain.rules.least_score_scoring import after_round, clockwise, deal, judge, reveal
from domain.rules.least_score_sets import classify_cached, sort_key, timeout_key
from domain.rules.least_score_view import check_declare, open_takeable

NAME = "least-score"


def start(players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
    resolved = resolve(options, players)
    opts = Opts.of(resolved, players)
    dealer = chance.pick(key, "first-dealer", players)
    seated = tuple(range(players))
    first = deal(players, opts, 1, dealer, clockwise(dealer, players, seated), seated, key)
    return (GameStarted(NAME, players, resolved, dealer), first)


# --------------------------------------------------------------------------- decide


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


def _remove(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...] | None:
    """``hand`` minus the multiset ``cards``, or None if a card is missing."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)


def _play(state: LeastState, seat: int, discard: tuple[str, ...], take: str, key: bytes,
          timed_out: bool) -> tuple[Any, ...]:
    if not discard:
        raise InvalidCommand("discard at least one card")
    # Anything that is not a card of the hand (including a malformed code) fails here.
    if _remove(state.hands[seat], discard) is None:
        raise InvalidCommand("you can only discard cards from your hand")
    judged = classify_cached(discard if len(discard) == 1 else tuple(sorted(discard, key=sort_key)),
                             state.opts.sets)
    if judged is None:
        raise InvalidCommand(f"{list(discard)} is not a legal set (RULES §4.4)")
    kind, arranged = judged
    events: list[Any] = []
    if take == "stock":
        stock = state.stock
        if not stock:
            if not state.dead:
                raise InvalidCommand("neither the stock nor the dead pile holds a card (RULES §4.7)")
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
        dead = _remove(state.open_set, (card,)) or ()
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


# --------------------------------------------------------------------------- evolve


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
    hand = _remove(state.hands[seat], e.discard)
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


# --------------------------------------------------------------------------- the rest


def cards_in_play(state: LeastState) -> list[str]:
    out = [c for h in state.hands for c in h]
    return out + list(state.open_set) + list(state.dead) + list(state.stock)


def full_pack(state: LeastState) -> list[str]:
    return list(packs(french_pack(state.opts.jokers), state.opts.decks))


class _LeastScore:
    """The Least Score ruleset object (see :mod:`domain.ruleset`)."""

    name = NAME
    title = "Least Score"
    min_players = 2
    max_players = 10
    options = OPTIONS
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        return resolve(raw, players)

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        return start(players, options, key)

    # remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
    parse_command = codec.CommandParser(COMMAND_TYPES)

    # The module's functions themselves, not methods that call them: called for every command and event.
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)

    def view(self, state: Any, seat: int | None) -> Any:
        return _view.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return _view.redact(event, seat)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        return _view.legal_actions(state, seat)

    def is_terminal(self, state: Any) -> bool:
        return bool(state.phase == "over")

    def scores(self, state: Any) -> tuple[int, ...]:
        return tuple(state.scores)

    def awaiting(self, state: Any) -> tuple[int, ...]:
        return (state.turn,) if state.phase == "turns" and state.turn is not None else ()

    def deadlines(self, state: Any) -> tuple[Any, ...]:
        # turn_no counts the turns played this round; the command names the current one
        return (TurnTimedOut(state.turn, state.turn_no + 1),) if self.awaiting(state) else ()

    def summary(self, state: Any) -> Any:
        return {"round": state.round, "phase": state.phase, "turn": state.turn,
                "dealer": state.dealer, "scores": list(state.scores)}

    def cards_in_play(self, state: Any) -> list[str]:
        return cards_in_play(state)

    def full_pack(self, state: Any) -> list[str]:
        return full_pack(state)


RULESET = _LeastScore()
