"""Seats grown to many cards through the rules engine itself, by deliberate failed claims: the
worst cases of ``legal_actions`` (RULES §2.5 rule 8, revision 4).

The driver knows every card (it reads the state), so it can make a claim it knows is wrong;
the rules judge it as any other claim and deal the claimant its extra card.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from domain import rules
from domain.bots import random_policy
from domain.cards import rank
from domain.choices import command
from domain.ruleset import fold

KEY = b"g" * 32
#: Moves the driver never makes: they would end the round (calls) or shrink a layout (claims).
_NOT_NOW = frozenset({"CallPedro", "CallCorte", "Close", "Declare", "SnapOwn", "SnapRival", "Match", "MatchRival",
                      "MatchGroup", "PlaceOrder", "CancelOrder"})


def send(name: str, state: Any, seat: int, cmd: Mapping[str, Any]) -> Any:
    rs = rules.get(name)
    for event in rs.decide(state, seat, rs.parse_command(dict(cmd)), KEY):
        state = rs.evolve(state, event)
    return state


def start(name: str, players: int, options: Mapping[str, Any] | None = None) -> Any:
    rs = rules.get(name)
    return fold(rs, list(rs.start(players, rs.resolve_options(options or {}, players), KEY)))


def pedro_seat_with(cards: int, players: int = 2) -> tuple[Any, int]:
    """A Pedro game where the first player has ``cards`` cards and holds a card drawn from the
    stock (so a multi-discard is offered): each of its turns a wrong ``Keep`` group adds one."""
    state = start("pedro", players)
    me = state.turn
    while True:
        seat, lay = state.turn, state.layouts[state.turn]
        if state.step == "AWAIT_ACTION":
            state = send("pedro", state, seat, {"type": "Draw", "source": "stock"})
            if seat == me and len(state.layouts[me].present()) >= cards:
                return state, me
        elif state.step == "HOLDING":
            occupied = lay.occupied()
            pair = next(((a, b) for a in occupied for b in occupied
                         if a != b and rank(lay.card(a) or "") != rank(lay.card(b) or "")
                         and "JK" not in (lay.card(a), lay.card(b))), None)
            if seat == me and pair is not None:
                cmd = {"type": "Keep", "replace": pair[0], "also_discard": [pair[1]]}  # surely wrong
            else:
                cmd = {"type": "Keep", "replace": occupied[0], "also_discard": []}
            state = send("pedro", state, seat, cmd)
        else:  # a power: any of it
            state = send("pedro", state, seat, command(rules.get("pedro").legal_actions(state, seat)[0]))


def _wrong_claims(name: str, state: Any) -> Any:
    """Every seat that may claim on the open window claims a card of its own it knows is wrong."""
    rs = rules.get(name)
    w = state.window
    for seat in range(state.players):
        moves = rs.moves(state, seat)
        kind = "SnapOwn" if name == "corte" else "Match"
        if w is None or not any(a["type"] == kind for a in moves):
            continue
        lay = state.layouts[seat]
        wrong = next((x for x in lay.occupied() if rank(lay.card(x) or "") != rank(w.card)), None)
        if wrong is not None:
            claim = {"type": kind, "window_id": w.id, "slot": wrong}
            state = send(name, state, seat, claim | ({"penalty_to": "new"} if kind == "SnapOwn" else {}))
    return state


def grown_by_claims(name: str, players: int, turns: int, options: Mapping[str, Any] | None = None,
                    seed: int = 1) -> Iterator[Any]:
    """Every state of a Corte or 4 Cartas game where, on each window, every seat that may claims
    wrong (one card more each time) and the turns are random moves but calls and claims."""
    rs = rules.get(name)
    rng = random.Random(seed)
    state = start(name, players, options)
    for _ in range(turns):
        yield state
        if rs.is_terminal(state):
            return
        state = _wrong_claims(name, state)
        yield state
        for seat in rs.awaiting(state):
            actions = [a for a in rs.legal_actions(state, seat) if a["type"] not in _NOT_NOW]
            if actions:
                state = send(name, state, seat, command(random_policy({}, actions, rng, True)))
                break
