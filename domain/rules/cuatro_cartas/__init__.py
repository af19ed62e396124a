"""4 Cartas (Brazilian), as a Decider.

**The game.** One 52-card pack, 2–8 players, 5 rounds, lowest cumulative score wins.
Each player has four face-down cards in slots A–D and peeks at two of them
(``ChoosePeek``) before the first turn; the up-card then opens window W0. On a turn a
player draws from the stock or takes the top of the pile (``Draw``), then discards the
drawn card (``DiscardDrawn``) or puts it in place of one of their cards (``Replace``).
A K, J or Q discarded from the stock, or replaced out of a layout, fires its power:
look (``Look``: K two cards, J and Q one), then for K and J an optional swap between
two different players (``Swap`` / ``NoSwap``); ``SkipPower`` skips it all. A card taken
from the pile and discarded again fires nothing (unless ``rediscard_power``). Values: A 1, 2–10 face value, J Q K
10, an 8 is −5 when only 8s are left in the layout, else 0 (``eight_rule``).

**Matching.** Every in-turn discard opens a window (public id) once its power is done.
Anyone not locked may send ``Match{window_id, slot}`` on one of their own face-down
cards: right → the card goes on the pile and the slot stays empty; wrong → the card is
revealed (``failed_match_reveal``) and stays, and the claimant takes an unseen penalty
card from the stock (``penalty_placement``, ``penalty_card_visible_to_owner``). A
window ends when the next in-turn discard lands (superseded), when its card is taken
from the pile (taken), when won (``single_match_per_discard``), or at the round's end
(final). ``MatchRival`` and ``MatchGroup`` exist under their options.

**Standing orders** (:mod:`domain.orders`): ``PlaceOrder{rank, claim, ...}`` leaves a
``Match`` (or, under ``rival_matching``, a ``MatchRival``) to be sent when a card of ``rank``
lands; ``CancelOrder{order_id}``. Placing one runs the claim's public checks but the window's
(refused during the final window). When a window opens, in the same ``decide`` step, the live
orders on its rank fire: the seats after the discarder clockwise, the discarder last (W0 on
the up-card: once the first turn has begun, from the first player); a seat's orders by id.
Each goes through ``check_claim`` and ``judge`` like a hand-sent match, or is cancelled if
``check_claim`` refuses it (a window won under ``single_match_per_discard``). A swap, replace,
match, give or penalty card on a slot an order names cancels it, as does the end of the
round; its events are private to its owner until ``OrdersRevealed`` at the round's end.

**Fechei.** ``Close`` instead of a turn (or ``close: true`` on the turn's last command
with ``close_timing = after_turn``) starts the final lap: every other player plays once
more (the closer's layout stays open unless ``lock_closer``). When the turn would return to the
closer, the current window becomes the final window: eligible seats claim or ``Pass``,
and it ends when all have passed, when won, or on ``FinalWindowExpired``. The closer
scores their total if strictly lowest, else 2× it (1 point at 0; a negative total per
``failed_close_negative``).

**Where the rules are silent, we chose** (what players of Cambio-like games expect):

* The deal goes one card at a time clockwise from the dealer's left, filling A, B, C, D.
* Window ids count up through the whole game, so a window of an earlier round is stale.
* A claim when no window is current (during a power, after a *taken* window, in the
  peek) is ``409 no_window``; naming any other window than the current one is
  ``409 stale_window``; a ``Pass`` from a seat with nothing to pass on is ``409 wrong_phase``.
* With ``allow_rediscard = false``, a player holding a pile card whose layout matches
  have emptied may still discard it (there is nothing left to replace).
* ``close: true`` on a K/J ``Look`` is accepted only when no swap is possible (the
  look then ends the turn); on a power fired by an in-turn match it is refused (422).
* ``auto_close_when_empty`` closes as ``Close`` instead of the turn under either timing.
* A timed-out turn never fires a power; after skipping an in-turn-match power it goes
  on with the turn's automatic draw and discard.
* ``MatchGroup`` is listed for 2–4 slots (one slot is ``Match``); ``decide`` accepts any
  non-empty set. ``MatchRival`` never fires a power under ``in_turn_match_power``.
* ``Draw{stock}`` with an empty stock and nothing to reshuffle is ``409 wrong_phase``.
* When ``common.stock_exhausted = end_round`` ends a round, a closer scores their total
  unjudged ("nobody gets a caller bonus or penalty").
* An option set stored before ``rediscard_power`` existed has no value for it and is
  kept so (its games play it as ``false``, as they did), so that the audit's ``start``
  reproduces the stored ``GameStarted``.
* The game ends after ``rounds`` rounds; ``play_another_round`` plays whole rounds
  until one lowest cumulative score remains.
"""
from __future__ import annotations

# What code outside this package may use: the ruleset, its own commands and events (the
# shared ones are in domain.messages), its state and the helpers that tests and bots call.
from domain.rules.cuatro_cartas.events import (
    CallMade, CardDiscarded, CardReplaced, CardsLooked, ClaimResolved, FinalWindowOpened, PeekChosen,
    PenaltyCardDealt, PenaltySkipped, PowerFizzled, PowerSkipped, PowerStarted, RoundDealt, RoundRevealed,
    RoundScored, StockReshuffled, SwapDeclined, WindowWon,
)
from domain.rules.cuatro_cartas.flow import game_winners
from domain.rules.cuatro_cartas.model import (
    ChoosePeek, Close, DiscardDrawn, Look, Match, MatchGroup, MatchRival, NoSwap, Replace, SkipPower, State, Swap,
    closer_score, layout_total,
)
from domain.rules.cuatro_cartas.ruleset import RULESET

__all__ = [
    "RULESET", "State", "closer_score", "layout_total", "ChoosePeek", "Close", "DiscardDrawn",
    "Look", "Match", "MatchGroup", "MatchRival", "NoSwap", "Replace", "SkipPower", "Swap",
    "CallMade", "CardDiscarded", "CardReplaced", "CardsLooked", "ClaimResolved",
    "FinalWindowOpened", "PeekChosen", "PenaltyCardDealt", "PenaltySkipped", "PowerFizzled",
    "PowerSkipped", "PowerStarted", "RoundDealt", "RoundRevealed", "RoundScored", "StockReshuffled",
    "SwapDeclined", "WindowWon", "game_winners",
]
