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

**Decisions where RULES.md is silent** (the players' usual expectation):

* A claim when no window is current is ``409 no_window`` even if it names an old one;
  ``stale_window`` is for a claim naming another window than the current one.
* The final window starts only if the current window is not yet won and some seat has a
  claim to make; otherwise the reveal follows at once (a won window cannot be won again,
  cf. A30). Eligibility is re-evaluated after every claim or pass.
* A ``CallCorte`` turn counts as a turn (for ``round_turn_limit``) and as an own turn.
* A seat that cannot draw and cannot call is skipped automatically (``TurnSkipped``);
  one that may call chooses between ``CallCorte`` and ``SkipTurn``.
* ``TurnTimedOut{seat, turn_no}`` must name the active seat and the current ``turn_no``
  (``summary``; 0 for the initial peek), else ``409 wrong_phase``: a stale deadline.
* With ``powers_optional = false`` ``SkipPower`` is refused (409) while a target exists;
  ``KingKeep`` stays legal (choosing not to swap is part of the King's power).
* ``common.decks = 1`` is accepted for any number of players (40 of 52 cards at 10).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import chance
from domain.cards import french_pack, rank
from domain.codec import parse_command
from domain.errors import (
    InvalidCommand,
    InvalidOptions,
    Locked,
    NotYourTurn,
    NoWindow,
    RuleError,
    WrongPhase,
)
from domain.rules import corte_view
from domain.rules.corte_evolve import evolve
from domain.rules.corte_flow import (
    Out,
    deal,
    end_round,
    end_turn,
    final_window_done,
    finish_turn,
    fires,
    power_has_target,
    refill,
    reshuffle,
)
from domain.rules.corte_model import (
    AWAIT_ACTION,
    COMMAND_TYPES,
    EVENT_TYPES,
    FINAL_LAP,
    FINAL_WINDOW,
    GAME_OVER,
    HOLDING,
    INITIAL_PEEK,
    KING_DECIDE,
    OPTIONS,
    POWER,
    TURNS,
    BlindSwap,
    CallCorte,
    CallMade,
    CardDiscarded,
    CardDrawn,
    CardGiven,
    CardsPeeked,
    CardsSwapped,
    ChoosePeek,
    ClaimResolved,
    DiscardDrawn,
    Draw,
    FinalWindowEnded,
    FinalWindowExpired,
    GameStarted,
    KingKeep,
    KingKept,
    KingLook,
    KingSwap,
    Pass,
    Passed,
    PeekChosen,
    PeekOwn,
    PeekRival,
    PenaltyCardDealt,
    PowerSkipped,
    Replace,
    SkipPower,
    SkipTurn,
    SnapOwn,
    SnapRival,
    State,
    TimeoutApplied,
    TurnSkipped,
    TurnTimedOut,
    WindowClosed,
    WindowOpened,
    WindowWon,
)
from domain.ruleset import resolve_options
from domain.windows import occupied_slot, parse_penalty_to, require_window

NAME = "corte"


# ---------------------------------------------------------------- public checks


def _seat_ok(s: State, p: int, what: str = "player") -> int:
    if not 0 <= p < s.players:
        raise InvalidCommand(f"{what} {p} is not a seat of this game")
    return p


def _my_turn(s: State, seat: int, step: str) -> None:
    if s.phase not in (TURNS, FINAL_LAP):
        raise WrongPhase(f"no turns are played in phase {s.phase}")
    if s.turn != seat:
        raise NotYourTurn(f"it is seat {s.turn}'s turn")
    if s.step != step:
        raise WrongPhase(f"this command needs step {step}, not {s.step}")


def _power(s: State, seat: int, r: str) -> None:
    _my_turn(s, seat, POWER)
    if s.power != r:
        raise WrongPhase(f"the power being resolved is the {s.power}'s, not the {r}'s")


def _rival(s: State, seat: int, p: int) -> int:
    _seat_ok(s, p, "rival")
    if p == seat:
        raise InvalidCommand("the rival must be another seat")
    return p


# ---------------------------------------------------------------- the peek and the turn


def _choose_peek(out: Out, seat: int, c: ChoosePeek) -> None:
    s = out.s
    if s.phase != INITIAL_PEEK:
        raise WrongPhase("the initial peek is over")
    if seat in s.peeked:
        raise WrongPhase("you already chose your peek")
    lay = s.layouts[seat]
    if len(c.slots) != 2 or len(set(c.slots)) != 2 or not all(lay.is_occupied(x) for x in c.slots):
        raise InvalidCommand("choose two distinct slots of your grid")
    _peek(out, seat, tuple(c.slots), False)


def _peek(out: Out, seat: int, slots: tuple[str, ...], timed_out: bool) -> None:
    lay = out.s.layouts[seat]
    out.emit(PeekChosen(seat, slots, tuple(lay.card(x) for x in slots), timed_out))
    s = out.s
    if s.phase == TURNS and s.pile:  # the last peek ends INITIAL_PEEK: W0 opens on the up-card
        out.emit(WindowOpened(s.window_seq + 1, s.pile[-1]))


def _call(out: Out, seat: int, c: CallCorte) -> None:
    s = out.s
    _my_turn(s, seat, AWAIT_ACTION)
    if s.caller is not None:
        raise WrongPhase("¡Corte! was already called this round")
    if s.own_turns[seat] < s.opts.min_own_turns:
        raise WrongPhase(f"you may call after {s.opts.min_own_turns} own turns")
    out.emit(CallMade(seat, "corte"))
    end_turn(out, seat)


def _draw(out: Out, seat: int, c: Draw) -> None:
    s = out.s
    _my_turn(s, seat, AWAIT_ACTION)
    if not s.stock:
        if s.opts.stock_exhausted == "end_round":
            end_round(out, "stock_exhausted")
            return
        if len(s.pile) <= 1:
            raise WrongPhase("no card can be drawn; send SkipTurn")
        reshuffle(out)
    out.emit(CardDrawn(seat, "stock", out.s.stock[0]))


def _skip_turn(out: Out, seat: int, c: SkipTurn) -> None:
    s = out.s
    _my_turn(s, seat, AWAIT_ACTION)
    if corte_view.can_draw(s) or s.opts.stock_exhausted == "end_round":
        raise WrongPhase("a card can be drawn; SkipTurn is only for an empty stock")
    out.emit(TurnSkipped(seat, "no_card", s.turn_no))
    end_turn(out, seat)


def _discard(out: Out, seat: int, card: str, slot: str | None, powered: bool) -> None:
    """An in-turn discard lands: supersede the window, then the power or the end of the turn."""
    s = out.s
    if s.window is not None:
        out.emit(WindowClosed(s.window.id, "superseded"))
    power = fires(card) if powered else None
    placed = s.held if slot is not None else None
    out.emit(CardDiscarded(seat, card, "drawn" if slot is None else "replaced", slot, placed, power))
    if power is None:
        finish_turn(out, seat)
    elif not power_has_target(out.s, seat, card):
        out.emit(PowerSkipped(seat, power, "no_target"))
        finish_turn(out, seat)


def _discard_drawn(out: Out, seat: int, c: DiscardDrawn) -> None:
    s = out.s
    _my_turn(s, seat, HOLDING)
    assert s.held is not None
    _discard(out, seat, s.held, None, True)


def _replace(out: Out, seat: int, c: Replace) -> None:
    s = out.s
    _my_turn(s, seat, HOLDING)
    occupied_slot(s.layouts[seat], c.slot)
    card = s.layouts[seat].card(c.slot)
    assert card is not None
    _discard(out, seat, card, c.slot, s.opts.replaced_card_power)


# ---------------------------------------------------------------- powers


def _peek_own(out: Out, seat: int, c: PeekOwn) -> None:
    s = out.s
    _power(s, seat, "5")
    occupied_slot(s.layouts[seat], c.slot)
    out.emit(CardsPeeked(seat, "5", ((seat, c.slot),), (s.layouts[seat].card(c.slot),)))
    finish_turn(out, seat)


def _peek_rival(out: Out, seat: int, c: PeekRival) -> None:
    s = out.s
    _power(s, seat, "6")
    _rival(s, seat, c.player)
    occupied_slot(s.layouts[c.player], c.slot)
    out.emit(CardsPeeked(seat, "6", ((c.player, c.slot),), (s.layouts[c.player].card(c.slot),)))
    finish_turn(out, seat)


def _pair(s: State, seat: int, own_slot: str, rival: int, rival_slot: str) -> None:
    occupied_slot(s.layouts[seat], own_slot, "own_slot")
    _rival(s, seat, rival)
    occupied_slot(s.layouts[rival], rival_slot, "rival_slot")


def _blind_swap(out: Out, seat: int, c: BlindSwap) -> None:
    s = out.s
    _power(s, seat, "Q")
    _pair(s, seat, c.own_slot, c.rival, c.rival_slot)
    if c.rival == s.locked():
        raise Locked("the caller's grid is locked")
    out.emit(CardsSwapped(seat, "Q", (seat, c.own_slot), (c.rival, c.rival_slot)))
    finish_turn(out, seat)


def _king_look(out: Out, seat: int, c: KingLook) -> None:
    s = out.s
    _power(s, seat, "K")
    _pair(s, seat, c.own_slot, c.rival, c.rival_slot)
    cards = (s.layouts[seat].card(c.own_slot), s.layouts[c.rival].card(c.rival_slot))
    out.emit(CardsPeeked(seat, "K", ((seat, c.own_slot), (c.rival, c.rival_slot)), cards))


def _king_swap(out: Out, seat: int, c: KingSwap) -> None:
    s = out.s
    _my_turn(s, seat, KING_DECIDE)
    assert s.king is not None
    own_slot, rival, rival_slot = s.king
    if rival == s.locked():
        raise Locked("the caller's grid is locked: only KingKeep")
    out.emit(CardsSwapped(seat, "K", (seat, own_slot), (rival, rival_slot)))
    finish_turn(out, seat)


def _king_keep(out: Out, seat: int, c: KingKeep) -> None:
    _my_turn(out.s, seat, KING_DECIDE)
    out.emit(KingKept(seat))
    finish_turn(out, seat)


def _skip_power(out: Out, seat: int, c: SkipPower) -> None:
    s = out.s
    _my_turn(s, seat, POWER)
    if not s.opts.powers_optional:
        raise WrongPhase("powers are mandatory (corte.powers_optional = false)")
    assert s.power is not None
    out.emit(PowerSkipped(seat, s.power, "declined"))
    finish_turn(out, seat)


# ---------------------------------------------------------------- snaps


def _claim_window(s: State, seat: int, window_id: int) -> None:
    if s.phase == GAME_OVER:
        raise WrongPhase("the game is over")
    if s.phase == INITIAL_PEEK:
        raise NoWindow("there are no windows during the initial peek")
    require_window(s.window, window_id, in_power=s.step in (POWER, KING_DECIDE), passed_by=seat,
                   reject_won=s.opts.late_snap == "reject")
    if seat == s.locked():
        raise Locked("the caller may not snap")


def _snap_own(out: Out, seat: int, c: SnapOwn) -> None:
    s = out.s
    _claim_window(s, seat, c.window_id)
    lay = s.layouts[seat]
    occupied_slot(lay, c.slot)
    pen = parse_penalty_to(lay, c.penalty_to)
    _judge(out, seat, "SnapOwn", (seat, c.slot), None, c.penalty_to, pen)


def _snap_rival(out: Out, seat: int, c: SnapRival) -> None:
    s = out.s
    _claim_window(s, seat, c.window_id)
    _rival(s, seat, c.rival)
    if c.rival == s.locked():
        raise Locked("the caller's grid is locked")
    occupied_slot(s.layouts[c.rival], c.rival_slot, "rival_slot")
    lay = s.layouts[seat]
    if lay.occupied():
        if c.give_slot is None:
            raise InvalidCommand("give_slot must name one of your occupied slots")
        occupied_slot(lay, c.give_slot, "give_slot")
    elif c.give_slot is not None:
        raise InvalidCommand("you have no card to give: omit give_slot")
    elif s.opts.zero_card_rival_snap == "forbid":
        raise InvalidCommand("a player with no cards may not snap a rival (corte.zero_card_rival_snap = forbid)")
    pen = parse_penalty_to(lay, c.penalty_to)
    _judge(out, seat, "SnapRival", (c.rival, c.rival_slot), c.give_slot, c.penalty_to, pen)


_APPLIED = ("late_snap", "failed_snap_reveal", "penalty_card_visible_to_owner", "zero_card_rival_snap")


def _judge(out: Out, seat: int, kind: str, target: tuple[int, str], give_slot: str | None, penalty_to: str,
           pen: tuple[str, bool]) -> None:
    """Every public check passed: only now read the card, and apply the outcome (RULES §6.4)."""
    s = out.s
    w = s.window
    assert w is not None
    owner, slot = target
    card = s.layouts[owner].card(slot)
    assert card is not None
    o = s.opts
    if w.won_by is not None:
        outcome, why = "late", f"window {w.id} was already won by seat {w.won_by}, so the snap is late"
    elif rank(card) == rank(w.card):
        outcome, why = "correct", f"the card at seat {owner} {slot} has the rank of the {w.card}"
    else:
        outcome, why = "wrong", f"the card at seat {owner} {slot} does not have the rank of the {w.card}"
    tail = "" if outcome == "correct" else "; it is flipped and stays, and the snapper takes a penalty card"
    applied = dict(o_ for o_ in s.options if o_[0] in _APPLIED)
    out.emit(ClaimResolved(kind, seat, w.id, w.card, (target,), outcome, (card,), o.failed_snap_reveal, give_slot,
                           penalty_to, "RULES §6.4", applied, f"Seat {seat}'s {kind}: {why}{tail}."))
    if outcome == "correct":
        out.emit(WindowWon(w.id, seat))
        if kind == "SnapRival":
            _give(out, seat, give_slot, owner, slot)
    elif refill(out, seat, "penalty"):
        top = out.s.stock[0]
        out.emit(PenaltyCardDealt(seat, pen[0], pen[1], top, o.penalty_visible))
    final_window_done(out)


def _give(out: Out, seat: int, give_slot: str | None, rival: int, rival_slot: str) -> None:
    """After a correct rival snap: fill the rival's hole (C11, C12)."""
    if give_slot is not None:
        card = out.s.layouts[seat].card(give_slot)
        out.emit(CardGiven(seat, give_slot, rival, rival_slot, "layout", card))
    elif out.s.opts.zero_card_rival_snap == "draw_then_give" and refill(out, seat, "give"):
        out.emit(CardGiven(seat, None, rival, rival_slot, "stock", out.s.stock[0]))


def _pass(out: Out, seat: int, c: Pass) -> None:
    s = out.s
    if s.phase != FINAL_WINDOW:
        raise WrongPhase("Pass is only for the final window")
    _claim_window(s, seat, c.window_id)
    if not corte_view.has_claim(s, seat):
        raise WrongPhase("you have no claim to pass on")
    out.emit(Passed(seat, c.window_id))
    final_window_done(out)


# ---------------------------------------------------------------- system commands


def _timed_out(out: Out, c: TurnTimedOut) -> None:
    """The automatic action of RULES §2.11; never a call or a claim."""
    s = out.s
    _seat_ok(s, c.seat, "seat")
    if s.phase == INITIAL_PEEK:
        if c.turn_no != 0 or c.seat in s.peeked:
            raise WrongPhase("stale deadline: this seat has chosen its peek")
        out.emit(TimeoutApplied(c.seat, 0, "peek C and D"))
        _peek(out, c.seat, ("C", "D"), True)
        return
    if s.phase not in (TURNS, FINAL_LAP) or s.turn != c.seat or s.turn_no != c.turn_no:
        raise WrongPhase("stale deadline: that turn is over")
    seat = c.seat
    if s.step == AWAIT_ACTION:
        if not corte_view.can_draw(s) and s.opts.stock_exhausted == "reshuffle":
            out.emit(TimeoutApplied(seat, c.turn_no, "skip the turn (no card to draw)"))
            out.emit(TurnSkipped(seat, "no_card", s.turn_no))
            end_turn(out, seat)
            return
        out.emit(TimeoutApplied(seat, c.turn_no, "draw from the stock and discard it with no power"))
        _draw(out, seat, Draw())
        if out.s.phase == GAME_OVER or out.s.step != HOLDING:
            return  # the empty stock ended the round (end_round)
    elif s.step == HOLDING:
        out.emit(TimeoutApplied(seat, c.turn_no, "discard the drawn card with no power"))
    elif s.step == POWER:
        assert s.power is not None
        out.emit(TimeoutApplied(seat, c.turn_no, "skip the power"))
        out.emit(PowerSkipped(seat, s.power, "timeout"))
        finish_turn(out, seat)
        return
    else:
        out.emit(TimeoutApplied(seat, c.turn_no, "keep (no King swap)"))
        out.emit(KingKept(seat))
        finish_turn(out, seat)
        return
    held = out.s.held
    assert held is not None
    _discard(out, seat, held, None, False)


def _expired(out: Out, c: FinalWindowExpired) -> None:
    s = out.s
    if s.phase != FINAL_WINDOW or s.window is None or s.window.id != c.window_id:
        raise WrongPhase("stale deadline: that final window is over")
    out.emit(FinalWindowEnded(c.window_id, "expired"))
    end_round(out, "call")


_HANDLERS: dict[type, Callable[[Out, int, Any], None]] = {
    ChoosePeek: _choose_peek, CallCorte: _call, Draw: _draw, SkipTurn: _skip_turn, DiscardDrawn: _discard_drawn,
    Replace: _replace, PeekOwn: _peek_own, PeekRival: _peek_rival, BlindSwap: _blind_swap, KingLook: _king_look,
    KingSwap: _king_swap, KingKeep: _king_keep, SkipPower: _skip_power, SnapOwn: _snap_own,
    SnapRival: _snap_rival, Pass: _pass,
}


# ---------------------------------------------------------------- the ruleset

_PARSED: dict[tuple[Any, ...], Any] = {}


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

    def parse_command(self, data: Any) -> Any:
        """:func:`domain.codec.parse_command`, remembered for scalar-only commands.

        Commands are immutable, so an accepted one can be handed out again for the same
        JSON (same keys, values *and* value types: ``true`` never passes for ``1``).
        """
        key: tuple[Any, ...] | None = None
        if type(data) is dict:
            key = tuple((k, type(v), v) for k, v in data.items())
            try:
                hit = _PARSED.get(key)
            except TypeError:  # a list inside: not cached
                key = hit = None
            if hit is not None:
                return hit
        command = parse_command(data, COMMAND_TYPES)
        if key is not None:
            if len(_PARSED) >= 4096:
                _PARSED.clear()
            _PARSED[key] = command
        return command

    def decide(self, state: State, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
        if state is None:
            raise WrongPhase("the game has not started")
        if state.phase == GAME_OVER:
            raise WrongPhase("the game is over")
        out = Out(state, key)
        if seat is None:
            if isinstance(command, TurnTimedOut):
                _timed_out(out, command)
            elif isinstance(command, FinalWindowExpired):
                _expired(out, command)
            else:
                raise InvalidCommand("only system commands come without a seat")
            return tuple(out.events)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError("system commands come from the service", code="forbidden", status=403) \
                if type(command) in (TurnTimedOut, FinalWindowExpired) else InvalidCommand("unknown command")
        _seat_ok(state, seat, "seat")
        handler(out, seat, command)
        return tuple(out.events)

    def evolve(self, state: State | None, event: Any) -> State:
        return evolve(state, event)

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

    def summary(self, state: State) -> Any:
        return corte_view.summary(state)

    def cards_in_play(self, state: State) -> list[str]:
        out = [c for lay in state.layouts for c in lay.cards if c is not None]
        out += state.stock + state.pile
        if state.held is not None:
            out.append(state.held)
        return out

    def full_pack(self, state: State) -> list[str]:
        return list(french_pack() * state.opts.decks)


RULESET = Corte()
