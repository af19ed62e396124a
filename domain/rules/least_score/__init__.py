"""Least Score: a Yaniv relative with sets, open cards and a declaration.

The rules, as played here
-------------------------
* 2–10 players, one 52-card pack, two from 7 players (``common.decks``); A = 1,
  2–10 face value, J Q K = 10; ``jokers`` (0 or 2 per pack) are worth 0.
* Each deal: 5 cards to each seated player, private to their owner (counts public);
  one up-card is the first **open set** (``initial_upcard``). The dealer rotates
  clockwise and the next seat starts (``round_starter``).
* A turn is one atomic ``Play{discard, take}``: discard a legal set of own cards
  (see ``sets``) and take either the top of the stock or one card of
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
* Stock exhaustion: a stock take from an empty stock first reshuffles the dead
  pile (cards dead before this command) into a new stock (``StockReshuffled``); if
  that is empty too, ``take: stock`` is refused with 422.
* ``TurnTimedOut``: the highest-value single is discarded (ties: higher
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

Decisions where the rules are silent
----------------------------------
* The deal hands out ``order`` in blocks of 5 from the starter clockwise, then the
  up-card; the rest is the stock, top first.
* ``common.memory = notebook``: a seat's view lists, for every other player, the cards
  that player took from an open set and surely still holds (the multiset of taken
  cards minus every card of the same code they discarded since). ``strict``: nothing
  but the seat's own hand and the open set.
* ``common.round_turn_limit``: the round ends after that many turns, with no
  declarer; everyone scores their own total, and the round "winner" (for
  ``previous_round_winner``) is the lowest total, first in turn order from the starter.
* ``previous_round_winner``: if that seat was eliminated, the deal rotates as usual.
* ``common.tiebreak = play_another_round``: only the tied players play on, without
  elimination, until one round ends with a single lowest cumulative score.
* ``TurnTimedOut.turn_no`` is the 1-based number of the current turn of the round.
* ``end_on_first_elimination``: a tie among the players left is broken by
  ``common.tiebreak`` as well.
* Two copies of a card (two packs) may be a pair; how jokers and straight flushes
  behave in sets is written in ``sets``.
"""
from __future__ import annotations

# What code outside this package may use: the ruleset, its own commands and events (the
# shared ones are in domain.messages), its state and the helpers that tests and bots call.
from domain.rules.least_score.model import (
    LeastState, Declare, Play, CallMade, GameEnded, PlayerEliminated, RoundDealt, RoundRevealed,
    RoundScored, SetPlayed, StockReshuffled, TiebreakRound,
)
from domain.rules.least_score.ruleset import RULESET
from domain.rules.least_score.scoring import judge
from domain.rules.least_score.sets import hand_total, value

__all__ = [
    "RULESET", "LeastState", "Declare", "Play", "CallMade", "GameEnded", "PlayerEliminated",
    "RoundDealt", "RoundRevealed", "RoundScored", "SetPlayed", "StockReshuffled", "TiebreakRound",
    "judge", "hand_total", "value",
]
