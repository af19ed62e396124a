"""Corte: a 2×2 face-down grid, stock-only draws, snaps on the discard, "¡Corte!".

**Round.** Deal 4 face-down cards to A–D (round-robin from the first player, one card
at a time; then the up-card if ``initial_upcard``). ``INITIAL_PEEK``: every seat sends
``ChoosePeek{slots: [s1, s2]}`` and sees them privately. Then turns, starting with the
seat after the dealer in the direction of play:

* ``AWAIT_ACTION``: ``CallCorte`` (instead of drawing), ``Draw{source: "stock"}``, or
  ``SkipTurn`` when no card can be drawn.
* ``HOLDING``: ``DiscardDrawn`` (a 5, 6, Q or K fires its power) or ``Replace{slot}``
  (the replaced card does not fire, unless ``replaced_card_power``).
* ``POWER``: 5 ``PeekOwn{slot}``; 6 ``PeekRival{player, slot}``; Q ``BlindSwap{own_slot,
  rival, rival_slot}``; K ``KingLook{...}`` then ``KingSwap`` / ``KingKeep``; ``SkipPower``.
* The turn ends: a window opens on the top card, the next seat plays.

**Snaps** (any seat, any state but a power): ``SnapOwn{window_id, slot, penalty_to}``
and ``SnapRival{window_id, rival, rival_slot, give_slot, penalty_to}`` are blind claims,
checked on public facts only, then judged: ``correct`` (card to the pile; window won;
a rival snap gives the snapper's ``give_slot`` card into the hole), ``wrong`` or ``late``
(card revealed per ``failed_snap_reveal`` and stays; one unseen penalty card goes to
``penalty_to``). After ``CallCorte`` every other seat takes one turn (the caller's grid
stays open to snaps and swaps unless ``lock_caller``), then the final window
(``Pass{window_id}``, system ``FinalWindowExpired``), the reveal and the score (caller not
strictly lowest: +``failed_call_penalty``). Game to ``target_score``; ties per
``common.tiebreak``.

**Standing orders** (:mod:`domain.orders`): ``PlaceOrder{rank, claim, ...}`` leaves a
``SnapOwn`` or ``SnapRival`` (its fields but ``window_id``) to be sent when a card of ``rank``
lands; ``CancelOrder{order_id}``. Placing one runs the snap's public checks but the window's
(and is refused during the final window). When a window opens, in the same ``decide`` step,
the live orders on its rank fire in this order: the seats after the discarder in the
direction of play, the discarder last (the up-card's W0: from the first player); a seat's
orders by id. Each goes through ``check_claim`` and ``judge`` like a hand-sent snap (the first
correct one wins, later ones are late), or is cancelled if ``check_claim`` refuses it. A swap,
replace, snap, give or penalty placement on a slot an order names cancels it, as does the end
of the round; its events are private to its owner until ``OrdersRevealed`` at the round's end.

**Options** (keys without ``corte.``; defaults first): ``replaced_card_power``
false|true, ``initial_upcard`` false|true, ``direction`` left|right, ``late_snap``
penalize|reject, ``failed_snap_reveal`` public|snapper_only|none,
``penalty_card_visible_to_owner`` false|true, ``zero_card_rival_snap``
draw_then_give|forbid|leave_empty, ``powers_optional`` false|true,
``min_own_turns_before_call`` 0, ``lock_caller`` false|true, ``failed_call_penalty`` 10,
``target_score`` 100; and ``common.decks`` (auto: 1 pack up to 6 players, 2 for 7–10),
``common.stock_exhausted``, ``common.tiebreak``, ``common.memory``,
``common.round_turn_limit``.

**Decisions where the rules are silent** (the players' usual expectation):

* A claim when no window is current is ``409 no_window`` even if it names an old one;
  ``stale_window`` is for a claim naming another window than the current one, or one
  the claimant passed on.
* The final window starts only if the current window is not yet won and some seat has a
  claim to make; otherwise the reveal follows at once (a won window cannot be won again,
  cf. A30). Eligibility is re-evaluated after every claim or pass, so a seat left with
  nothing to claim never holds the window open.
* A ``CallCorte`` turn counts as a turn (for ``round_turn_limit``) and as an own turn.
* A seat that cannot draw and cannot call is skipped automatically (``TurnSkipped``);
  one that may call chooses between ``CallCorte`` and ``SkipTurn``. Under
  ``stock_exhausted = end_round`` ``Draw`` stays legal on an empty stock and ends the round.
* ``TurnTimedOut{seat, turn_no}`` must name the active seat and the current ``turn_no``
  (``summary``; 0 for the initial peek), else ``409 wrong_phase``: a stale deadline.
  A seat sending a system command gets ``403 forbidden``.
* With ``powers_optional = false`` ``SkipPower`` is refused (409) while a target exists;
  ``KingKeep`` stays legal (choosing not to swap is part of the King's power).
* A penalty or give draw on an empty stock reshuffles first (``reshuffle``); if nothing
  can be drawn, ``DrawSkipped`` and the claim's outcome stands.
* Dealing: one card at a time round-robin from the first player; the first player is the
  seat after the dealer in the direction of play; the deal rotates the same way.
* ``common.decks = 1`` is accepted for any number of players (40 of 52 cards at 10).
* The held card is shown to its holder in the view under both memory settings (it is in
  hand, not face down); a King look is delivered in ``CardsPeeked`` and, under
  ``notebook``, stays in the view like any other seen card.
"""
from __future__ import annotations

# What code outside this package may use: the ruleset, its own commands and events (the
# shared ones are in domain.messages), its state and the helpers that tests and bots call.
from domain.rules.corte.events import (
    CallMade, CardDiscarded, CardGiven, CardsPeeked, CardsSwapped, ClaimResolved, DrawSkipped,
    FinalWindowEnded, FinalWindowStarted, KingKept, PeekChosen, PenaltyCardDealt, PowerSkipped,
    RoundDealt, RoundRevealed, RoundScored, StockReshuffled, TurnEnded, TurnSkipped, WindowWon,
)
from domain.rules.corte.flow import winners
from domain.rules.corte.model import (
    State, BlindSwap, CallCorte, ChoosePeek, DiscardDrawn, Draw, KingKeep, KingLook, KingSwap,
    PeekOwn, PeekRival, Replace, SnapOwn, SnapRival,
)
from domain.rules.corte.ruleset import RULESET

__all__ = [
    "RULESET", "State", "BlindSwap", "CallCorte", "ChoosePeek", "DiscardDrawn", "Draw", "KingKeep",
    "KingLook", "KingSwap", "PeekOwn", "PeekRival", "Replace", "SnapOwn", "SnapRival", "CallMade",
    "CardDiscarded", "CardGiven", "CardsPeeked", "CardsSwapped", "ClaimResolved", "DrawSkipped",
    "FinalWindowEnded", "FinalWindowStarted", "KingKept", "PeekChosen", "PenaltyCardDealt",
    "PowerSkipped", "RoundDealt", "RoundRevealed", "RoundScored", "StockReshuffled", "TurnEnded",
    "TurnSkipped", "WindowWon", "winners",
]
