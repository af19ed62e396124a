"""Given/when/then helpers for the Pedro tests (no tests here).

``table(...)`` folds a ``GameStarted`` and a ``RoundDealt`` whose order deals exactly the
layouts asked for (the rest of the pack fills the stock, so conservation holds), so a
test can start from any position the rules allow.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain import codec
from domain.errors import RuleError
from domain.messages import GameStarted, TurnStarted
from domain.rules.pedro import RULESET as R, RoundDealt, State, make_config, order_for
KEY = b"pedro-test-key".ljust(32, b"\0")


def table(layouts: Sequence[Sequence[str]], stock: Sequence[str] = (), upcard: str = "9C",
          options: Mapping[str, Any] | None = None, first: int = 0, penalty_seat: int | None = None,
          ) -> tuple[State, list[Any]]:
    """State at the start of ``first``'s first turn, dealt as given (seat i gets layouts[i])."""
    n = len(layouts)
    opts = R.resolve_options(options or {}, n)
    cfg = make_config(opts, n)
    dealer = (first - cfg.direction) % n
    used = Counter([c for lay in layouts for c in lay] + list(stock) + [upcard])
    rest = Counter(cfg.pack) - used
    assert not (used - Counter(cfg.pack)), "more copies than the pack holds"
    full_stock = tuple(stock) + tuple(sorted(rest.elements()))
    order = order_for(layouts, full_stock, upcard, first, cfg.direction)
    events: list[Any] = [
        GameStarted("pedro", n, opts, dealer),
        RoundDealt(1, dealer, first, penalty_seat, upcard, "commit", order, "salt"),
        TurnStarted(first, 1),
    ]
    state = None
    for e in events:
        state = R.evolve(state, e)
    assert isinstance(state, State)
    return state, events


def act(state: State, seat: int | None, command: Mapping[str, Any]) -> tuple[State, tuple[Any, ...]]:
    """Send a command in its JSON form; return the new state and the events."""
    events = R.decide(state, seat, R.parse_command(dict(command)), KEY)
    for e in events:
        state = R.evolve(state, e)
    return state, events


def refused(state: State, seat: int | None, command: Mapping[str, Any]) -> RuleError:
    try:
        R.decide(state, seat, R.parse_command(dict(command)), KEY)
    except RuleError as exc:
        return exc
    raise AssertionError(f"{command} was accepted")


def of_type(events: Sequence[Any], name: str) -> list[Any]:
    return [e for e in events if type(e).__name__ == name]


def one(events: Sequence[Any], name: str) -> Any:
    found = of_type(events, name)
    assert len(found) == 1, f"expected one {name}, got {[type(e).__name__ for e in events]}"
    return found[0]


def cards_of(state: State, seat: int) -> dict[str, str | None]:
    lay = state.layouts[seat]
    return dict(zip(lay.slots, lay.cards))


def typed(event: Any) -> dict[str, Any]:
    return codec.typed(event)
