"""Pedro: a Cabo-family memory game; lowest total wins; "Pedro!" ends the round.

Rules, in the order :func:`decide` applies them:

* Pack ``french54`` (52 + 2 jokers; K♦ = 0, A = 1, joker = 1, J/Q/K = 11/12/13) or
  ``spanish50`` (1-12 + 2 comodines, 12 de oros = 0). Two packs for 7-10 players.
* Deal: 4 face-down cards per seat in slots A B / C D (a losing caller of the previous
  round also gets E1, unpeeked); the bottom card of the stock starts the visible pile.
  C and D are shown privately at the deal (``CardsShown``), or on ``PeekBottom``.
* Turn (``AWAIT_ACTION``): ``CallPedro`` | ``Draw{source}`` | ``SkipTurn`` (only when no card
  can be drawn). A stock draw is public by default. ``HOLDING``: ``Keep{replace, also_discard}``
  (a plain exchange, or the blind multi-discard of identical cards, judged and never refused
  for being wrong) | ``Release``. A released stock 5 or 6 enters ``POWER_PROMPT``:
  ``UsePower6{target}`` (a private look) | ``UsePower5{own, other}`` (a blind swap) |
  ``SkipPower`` (only with ``powers_optional``).
* ``CallPedro`` ends the round at once (or starts a final lap); the caller wins only with
  the strictly lowest total, else gets a penalty card E1 next round. Match: points to 100.

Decisions where the rules are silent (documented here, tested in tests/domain):

* The deal: from the top of the shuffled order, each seat from the first player on (in
  the direction of play) takes its 4 (or 5) cards in slot order; the bottom card is the
  up-card; the rest is the stock (top = index 0).
* ``zero_card_matches_rank = false``: a 0-point card is identical only to another 0-point
  card of the same rank (two K♦ of a two-pack game); jokers stay wild with it.
* ``Draw{stock}`` on an empty stock reshuffles the pile except its top; if that leaves no
  card it is refused (422) while ``Draw{discard}`` is possible. With
  ``common.stock_exhausted = end_round`` it ends the round instead (no caller judged).
  ``SkipTurn`` is offered only when neither stock nor pile can give a card; when the seat
  may not call either, the turn is skipped at once.
* ``round_wins`` mode: a round without a caller is won by the lowest total (ties share);
  a tie on round wins at the target is settled by ``common.tiebreak``.
* ``UsePower5`` also accepts ``{a, b}`` with ``power5_any_two`` (where a and b are on two
  different seats); the own/other form stays accepted.
* ``TurnTimedOut`` during the turn is one command that draws and releases (no power), or
  keeps into the first occupied slot where a release is forbidden; a call is never made.
"""
from __future__ import annotations

# What code outside this package may use: the ruleset, its own commands and events (the
# shared ones are in domain.messages), its state and the helpers that tests and bots call.
from domain.rules.pedro.flow import Emitter, game_result, start_turn
from domain.rules.pedro.messages import (
    CallPedro, Keep, PeekBottom, Release, UsePower5, UsePower6, CallJudged, CallMade, CardDrawn,
    CardKept, CardPeeked, CardReleased, CardsShown, ClaimResolved, GameEnded, PowerSkipped,
    RoundDealt, RoundRevealed, RoundScored, StockReshuffled, TimeoutApplied,
)
from domain.rules.pedro.model import State, card_values, make_config, order_for, with_
from domain.rules.pedro.ruleset import RULESET

__all__ = [
    "RULESET", "CallPedro", "Keep", "PeekBottom", "Release", "UsePower5", "UsePower6", "CallJudged",
    "CallMade", "CardDrawn", "CardKept", "CardPeeked", "CardReleased", "CardsShown",
    "ClaimResolved", "GameEnded", "PowerSkipped", "RoundDealt", "RoundRevealed", "RoundScored",
    "StockReshuffled", "TimeoutApplied", "State", "card_values", "make_config", "order_for",
    "with_", "Emitter", "game_result", "start_turn",
]
