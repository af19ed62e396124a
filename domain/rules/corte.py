"""Corte (RULES.md §6): a 2×2 face-down grid, stock-only draws, snaps on the discard, "¡Corte!".

**Round.** Deal 4 face-down cards to A–D (round-robin from the first player, one card
at a time; then the up-card if ``initial_upcard``). ``INITIAL_PEEK``: every seat sends
``ChoosePeek{slots: [s1, s2]}`` and sees them privately. Then turns, starting with the
seat after the dealer in the direction of play:

* ``AWAIT_ACTION``: ``CallCorte`` (instead of drawing), ``Draw{source: "stock"}``, or
  ``SkipTurn`` when no card can be drawn (RULES §2.7).
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
``penalty_to``). After ``CallCorte`` every other seat takes one turn, the caller is locked,
then the final window (``Pass{window_id}``, system ``FinalWindowExpired``), the reveal
and the score (caller not strictly lowest: +``failed_call_penalty``). Game to
``target_score``; ties per ``common.tiebreak``.

**Options** (RULES §7.5, keys without ``corte.``; defaults first): ``replaced_card_power``
false|true, ``initial_upcard`` false|true, ``direction`` left|right, ``late_snap``
penalize|reject, ``failed_snap_reveal`` public|snapper_only|none,
``penalty_card_visible_to_owner`` false|true, ``zero_card_rival_snap``
draw_then_give|forbid|leave_empty, ``powers_optional`` true|false,
``min_own_turns_before_call`` 0, ``lock_caller`` true|false, ``failed_call_penalty`` 10,
``target_score`` 100; and ``common.decks`` (auto: 1 pack up to 6 players, 2 for 7–10),
``common.stock_exhausted``, ``common.tiebreak``, ``common.memory``,
``common.round_turn_limit`` (§7.1).

**Decisions where RULES.md is silent** (the players' usual expectation):

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
  can be drawn, ``DrawSkipped`` and the claim's outcome stands (RULES §2.7).
* Dealing: one card at a time round-robin from the first player; the first player is the
  seat after the dealer in the direction of play; the deal rotates the same way.
* ``common.decks = 1`` is accepted for any number of players (40 of 52 cards at 10).
* The held card is shown to its holder in the view under both memory settings (it is in
  hand, not face down); a King look is delivered in ``CardsPeeked`` and, under
  ``notebook``, stays in the view like any other seen card.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import chance
from domain.cards import french_pack
from domain.codec import CommandParser
from domain.errors import (
    InvalidCommand,
    InvalidOptions,
    RuleError,
    WrongPhase,
)
from domain.messages import FinalWindowExpired, GameStarted, TurnTimedOut
from domain.rules import corte_view
from domain.rules.corte_claims import CLAIM_HANDLERS, expired, timed_out
from domain.rules.corte_events import EVENT_TYPES
from domain.rules.corte_evolve import evolve
from domain.rules.corte_flow import (
    Out,
    deal,
)
from domain.rules.corte_model import (
    COMMAND_TYPES, FINAL_LAP, FINAL_WINDOW, GAME_OVER, INITIAL_PEEK, OPTIONS, TURNS, State,
)
from domain.rules.corte_turn import TURN_HANDLERS, seat_ok
from domain.ruleset import resolve_options
from domain.table import cards_on_table

NAME = "corte"


_HANDLERS: dict[type, Callable[[Out, int, Any], None]] = {**TURN_HANDLERS, **CLAIM_HANDLERS}


# ---------------------------------------------------------------- the ruleset

class Corte:
    """The Corte ruleset (satisfies :class:`domain.ruleset.Ruleset`)."""

    name = NAME
    title = "Corte"
    min_players = 2
    max_players = 10
    options = OPTIONS
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions({"players": f"Corte is for {self.min_players}-{self.max_players} players"})
        return resolve_options(OPTIONS, raw)

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        resolved = self.resolve_options(options, players)
        first_dealer = chance.pick(key, "first-dealer", players)
        started = GameStarted(NAME, players, resolved, first_dealer)
        out = Out(evolve(None, started), key)
        out.events.append(started)
        deal(out, 1, first_dealer)
        return tuple(out.events)

    # remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
    parse_command = CommandParser(COMMAND_TYPES)

    def decide(self, state: State, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
        if state is None:
            raise WrongPhase("the game has not started")
        if state.phase == GAME_OVER:
            raise WrongPhase("the game is over")
        out = Out(state, key)
        if seat is None:
            if isinstance(command, TurnTimedOut):
                timed_out(out, command)
            elif isinstance(command, FinalWindowExpired):
                expired(out, command)
            else:
                raise InvalidCommand("only system commands come without a seat")
            return tuple(out.events)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("system commands come from the service", code="forbidden", status=403) \
                if type(command) in (TurnTimedOut, FinalWindowExpired) else InvalidCommand("unknown command")
        seat_ok(state, seat, "seat")
        handler(out, seat, command)
        return tuple(out.events)

    # The module's function itself, not a method that calls it: called once per event.
    evolve = staticmethod(evolve)

    def view(self, state: State, seat: int | None) -> Any:
        return corte_view.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any:
        return corte_view.redact(event, seat)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        return corte_view.legal_actions(state, seat)

    def is_terminal(self, state: State) -> bool:
        return state.phase == GAME_OVER

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def awaiting(self, state: State) -> tuple[int, ...]:
        return corte_view.awaiting(state)

    def deadlines(self, state: State) -> tuple[Any, ...]:
        if state.phase == INITIAL_PEEK:
            return tuple(TurnTimedOut(p, 0) for p in corte_view.awaiting(state))
        if state.phase in (TURNS, FINAL_LAP) and state.turn is not None and state.step is not None:
            return (TurnTimedOut(state.turn, state.turn_no),)
        if state.phase == FINAL_WINDOW and state.window is not None:
            return (FinalWindowExpired(state.window.id),)
        return ()

    def summary(self, state: State) -> Any:
        return corte_view.summary(state)

    def cards_in_play(self, state: State) -> list[str]:
        return cards_on_table(state.stock, state.pile, state.layouts, state.held)

    def full_pack(self, state: State) -> list[str]:
        return list(french_pack() * state.opts.decks)


RULESET = Corte()
