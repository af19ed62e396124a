"""Helpers for the 4 Cartas tests: tables built by folding events, commands as JSON.

``table(...)`` deals chosen layouts (seat 0 plays first: the first dealer is the last
seat), lets everyone peek C and D, and returns the state at seat 0's first turn with
W0 open on the up-card. The rest of the pack fills the stock after ``stock``.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from domain.cards import french_pack
from domain.errors import RuleError
from domain.messages import GameStarted
from domain.rules.cuatro_cartas import RULESET as R, RoundDealt, State

KEY = b"cuatro-cartas-test-key-0123456789"


def table(layouts: list[list[str]], upcard: str = "2C", stock: list[str] | None = None,
          options: dict[str, Any] | None = None, peek: bool = True) -> State:
    n = len(layouts)
    opts = R.resolve_options(options or {}, n)
    deal = [layouts[i % n][i // n] for i in range(4 * n)]
    head = deal + [upcard] + list(stock or [])
    assert len(set(head)) == len(head), "a card appears twice"
    rest = [c for c in french_pack() if c not in set(head)]
    order = tuple(head + rest)
    state = R.evolve(None, GameStarted("cuatro-cartas", n, opts, n - 1))
    state = R.evolve(state, RoundDealt(1, n - 1, 0, upcard, "c0", order, "00"))
    if peek:
        for seat in range(n):
            state = play(state, seat, {"type": "ChoosePeek", "slots": ["C", "D"]})[1]
    return state


def send(state: State, seat: int | None, command: dict[str, Any]) -> tuple[tuple[Any, ...], State]:
    """Decide and fold one command given as JSON (raises the RuleError if refused)."""
    events = R.decide(state, seat, R.parse_command(command), KEY)
    for e in events:
        state = R.evolve(state, e)
    return events, state


def play(state: State, seat: int | None, command: dict[str, Any]) -> tuple[tuple[Any, ...], State]:
    return send(state, seat, command)


def refused(state: State, seat: int | None, command: dict[str, Any]) -> RuleError:
    try:
        send(state, seat, command)
    except RuleError as exc:
        return exc
    raise AssertionError(f"{command} was accepted")


def names(events: tuple[Any, ...]) -> list[str]:
    return [type(e).__name__ for e in events]


def of(events: tuple[Any, ...], name: str) -> list[Any]:
    return [e for e in events if type(e).__name__ == name]


def card(state: State, seat: int, slot: str) -> str | None:
    return state.layouts[seat].card(slot)


def wid(state: State) -> int:
    assert state.window is not None
    return state.window.id


def conserved(state: State) -> bool:
    return Counter(R.cards_in_play(state)) == Counter(R.full_pack(state))


# -- a driver that also sends the system commands, with claims at a small rate ---------------------


def drive(players: int, options: dict[str, Any], seed: int, claim_rate: float = 0.05,
          max_steps: int = 6000) -> tuple[list[Any], list[State], State]:
    """A random game; returns (events, state after each command, final state).

    Unlike the plain random bot it keeps claims rare even for the active player (so that
    layouts do not grow without end), ends long final windows with FinalWindowExpired and
    now and then times out a turn or a peek, as the service would.
    """
    rng = random.Random(seed)
    key = seed.to_bytes(8, "big") * 4
    events = list(R.start(players, R.resolve_options(options, players), key))
    state = None
    for e in events:
        state = R.evolve(state, e)
    assert state is not None
    states = [state]
    in_final = 0
    for _ in range(max_steps):
        if R.is_terminal(state):
            break
        seat: int | None
        cmd: dict[str, Any]
        in_final = in_final + 1 if state.phase == "FINAL_WINDOW" else 0
        if state.phase == "FINAL_WINDOW" and (in_final > 6 or rng.random() < 0.05):
            seat, cmd = None, {"type": "FinalWindowExpired", "window_id": state.window.id}  # type: ignore[union-attr]
        elif rng.random() < 0.02 and R.awaiting(state):
            who = rng.choice(R.awaiting(state))
            turn_no = 0 if state.phase == "INITIAL_PEEK" else state.turn_no
            seat, cmd = None, {"type": "TurnTimedOut", "seat": who, "turn_no": turn_no}
            if state.phase == "FINAL_WINDOW":
                seat, cmd = who, {"type": "Pass", "window_id": state.window.id}  # type: ignore[union-attr]
        else:
            seat, cmd = _pick(state, rng, claim_rate)
        new = R.decide(state, seat, R.parse_command(cmd), key)
        for e in new:
            state = R.evolve(state, e)
        events.extend(new)
        states.append(state)
    return events, states, state


CLAIMS = ("Match", "MatchRival", "MatchGroup")
ORDERS = ("PlaceOrder", "CancelOrder")


def _pick(state: State, rng: random.Random, claim_rate: float) -> tuple[int, dict[str, Any]]:
    """A standing order, or a claim (each at ``claim_rate``) by any seat, else an awaited seat's move."""
    for kinds in (ORDERS, CLAIMS):
        if rng.random() < claim_rate:
            seats = list(range(state.players))
            rng.shuffle(seats)
            for s in seats:
                acts = [a for a in R.legal_actions(state, s) if a["type"] in kinds]
                if acts:
                    return s, rng.choice(acts)
    who = rng.choice(R.awaiting(state))
    acts = R.legal_actions(state, who)
    plain = [a for a in acts if a["type"] not in CLAIMS + ORDERS] or acts
    return who, rng.choice(plain)
