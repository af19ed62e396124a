"""4 Cartas (Brazilian; RULES §5, options §7.1 and §7.4), as a Decider.

**The game.** One 52-card pack, 2–8 players, 5 rounds, lowest cumulative score wins.
Each player has four face-down cards in slots A–D and peeks at two of them
(``ChoosePeek``) before the first turn; the up-card then opens window W0. On a turn a
player draws from the stock or takes the top of the pile (``Draw``), then discards the
drawn card (``DiscardDrawn``) or puts it in place of one of their cards (``Replace``).
A K, J or Q discarded from the stock, or replaced out of a layout, fires its power:
look (``Look``: K two cards, J and Q one), then for K and J an optional swap between
two different players (``Swap`` / ``NoSwap``); ``SkipPower`` skips it all. A card taken
from the pile and discarded again fires nothing. Values: A 1, 2–10 face value, J Q K
10, an 8 is −5 when only 8s are left in the layout, else 0 (``eight_rule``).

**Matching.** Every in-turn discard opens a window (public id) once its power is done.
Anyone not locked may send ``Match{window_id, slot}`` on one of their own face-down
cards: right → the card goes on the pile and the slot stays empty; wrong → the card is
revealed (``failed_match_reveal``) and stays, and the claimant takes an unseen penalty
card from the stock (``penalty_placement``, ``penalty_card_visible_to_owner``). A
window ends when the next in-turn discard lands (superseded), when its card is taken
from the pile (taken), when won (``single_match_per_discard``), or at the round's end
(final). ``MatchRival`` and ``MatchGroup`` exist under their options.

**Fechei.** ``Close`` instead of a turn (or ``close: true`` on the turn's last command
with ``close_timing = after_turn``) starts the final lap: every other player plays once
more, the closer's layout locked (``lock_closer``). When the turn would return to the
closer, the current window becomes the final window: eligible seats claim or ``Pass``,
and it ends when all have passed, when won, or on ``FinalWindowExpired``. The closer
scores their total if strictly lowest, else 2× it (1 point at 0; a negative total per
``failed_close_negative``).

**Where RULES.md is silent, we chose** (what players of Cambio-like games expect):

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
  unjudged ("nobody gets a caller bonus or penalty", RULES §2.7).
* The game ends after ``rounds`` rounds; ``play_another_round`` plays whole rounds
  until one lowest cumulative score remains.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.cards import french_pack
from domain.codec import CommandParser
from domain.errors import InvalidCommand, InvalidOptions, WrongPhase
from domain.messages import Draw, FinalWindowExpired, Pass, SkipTurn, TimeoutApplied, TurnTimedOut
from domain.ruleset import OptionSpec, resolve_options
from domain.rules import cuatro_cartas_claims as claims
from domain.rules import cuatro_cartas_decide as flow
from domain.rules import cuatro_cartas_view as seen
from domain.rules.cuatro_cartas_evolve import evolve, forget_all
from domain.rules.cuatro_cartas_model import (
    COMMAND_TYPES, EVENT_TYPES, MAX_PLAYERS, MIN_PLAYERS, NAME, OPTIONS, ChoosePeek, Close, DiscardDrawn,
    Look, Match, MatchGroup, MatchRival, NoSwap, Replace, SkipPower, State, Swap,
)
from domain.table import cards_on_table

_Handler = Callable[[flow.Emitter, "int | None", Any], None]

_HANDLERS: dict[type, _Handler] = {
    Close: lambda em, seat, c: flow.close(em, seat),
    Draw: lambda em, seat, c: flow.draw(em, seat, c.source),
    SkipTurn: lambda em, seat, c: flow.skip_turn(em, seat),
    DiscardDrawn: lambda em, seat, c: flow.discard_drawn(em, seat, c.close),
    Replace: lambda em, seat, c: flow.replace_card(em, seat, c.slot, c.close),
    Look: lambda em, seat, c: flow.look(em, seat, c.targets, c.close),
    SkipPower: lambda em, seat, c: flow.skip_power(em, seat, c.close),
    Swap: lambda em, seat, c: flow.swap(em, seat, c.a, c.b, c.close),
    NoSwap: lambda em, seat, c: flow.no_swap(em, seat, c.close),
    Match: lambda em, seat, c: claims.match(em, seat, c.window_id, c.slot),
    MatchRival: lambda em, seat, c: claims.match_rival(em, seat, c.window_id, c.rival, c.rival_slot, c.give_slot),
    MatchGroup: lambda em, seat, c: claims.match_group(em, seat, c.window_id, c.slots),
    Pass: lambda em, seat, c: claims.pass_final(em, seat, c.window_id),
    FinalWindowExpired: lambda em, seat, c: claims.final_window_expired(em, seat, c.window_id),
    ChoosePeek: lambda em, seat, c: flow.choose_peek(em, flow.player(seat), c.slots),
    TurnTimedOut: lambda em, seat, c: _timed_out(em, seat, c),
}


def _timed_out(em: flow.Emitter, seat: int | None, c: TurnTimedOut) -> None:
    """RULES §2.11: the automatic action of a deadline, sent by the service (seat None)."""
    s = em.s
    if seat is not None:
        raise InvalidCommand("TurnTimedOut is a system command")
    if s.phase == "INITIAL_PEEK":
        if c.turn_no != 0 or not 0 <= c.seat < s.players or c.seat in s.peeked:
            raise WrongPhase("this seat has no initial peek pending")
        em.emit(TimeoutApplied(c.seat, 0, "peek C and D"))
        flow.choose_peek(em, c.seat, ("C", "D"), automatic=True)
        return
    if s.phase not in flow.TURN_PHASES or c.seat != s.turn or c.turn_no != s.turn_no:
        raise WrongPhase("this turn is not the current one")
    em.emit(TimeoutApplied(c.seat, c.turn_no, f"automatic play in {s.step}"))
    flow.timeout_turn(em)


class CuatroCartas:
    """The 4 Cartas ruleset object (see the module docstring)."""

    name = NAME
    title = "4 Cartas"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: tuple[OptionSpec, ...] = OPTIONS
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES

    def resolve_options(self, raw: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidOptions({"players": f"4 Cartas is for {MIN_PLAYERS} to {MAX_PLAYERS} players"})
        return resolve_options(OPTIONS, raw)

    def start(self, players: int, options: Mapping[str, Any], key: bytes) -> tuple[Any, ...]:
        return flow.start_events(players, self.resolve_options(options, players), key)

    # remembered per JSON form: domain.codec.CommandParser (called as it is, not as a method)
    parse_command = CommandParser(COMMAND_TYPES)

    def decide(self, state: State, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
        if state.phase == "GAME_OVER":
            raise WrongPhase("the game is over")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise InvalidCommand(f"unknown command {type(command).__name__}")
        if seat is not None and not 0 <= seat < state.players:
            raise InvalidCommand("no such seat")
        forget_all()
        em = flow.Emitter(state, key)
        handler(em, seat, command)
        return tuple(em.events)

    # The module's function itself, not a method that calls it: called once per event.
    evolve = staticmethod(evolve)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return seen.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> dict[str, Any] | None:
        return seen.redact(event, seat)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state.phase == "GAME_OVER":
            return []
        return seen.legal_actions(state, seat)

    def is_terminal(self, state: State) -> bool:
        return state.phase == "GAME_OVER"

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def awaiting(self, state: State) -> tuple[int, ...]:
        return seen.awaiting(state)

    def deadlines(self, state: State) -> tuple[Any, ...]:
        if state.phase == "INITIAL_PEEK":
            return tuple(TurnTimedOut(p, 0) for p in seen.awaiting(state))
        if state.phase in flow.TURN_PHASES and state.turn is not None:
            return (TurnTimedOut(state.turn, state.turn_no),)
        if state.phase == "FINAL_WINDOW" and state.window is not None:
            return (FinalWindowExpired(state.window.id),)
        return ()

    def summary(self, state: State) -> dict[str, Any]:
        return seen.summary(state)

    def cards_in_play(self, state: State) -> list[str]:
        return cards_on_table(state.stock, state.pile, state.layouts, state.held)

    def full_pack(self, state: State) -> list[str]:
        return list(french_pack())


RULESET = CuatroCartas()
