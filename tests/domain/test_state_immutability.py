"""No ruleset function changes the state (or event) it is given, for all four rulesets.

States are frozen dataclasses or named tuples, but a field may still hold a list, dict
or set; if ``decide``, ``evolve``, ``view``, ``legal_actions`` or any other function of
:class:`domain.ruleset.Ruleset` changed one in place, a state object the service keeps
between requests would no longer be the state its events fold to. Every call below is
made through :class:`Watched`, which compares the pickled arguments before and after.
Bots play a few seeded games through it, and at every state each read-only function is
also called for every seat (and for a spectator, ``None``).
"""
from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest

from domain import rules
from domain.ruleset import Ruleset
from domain.simulation import play

# (players, bot, seed): short enough to run in seconds, long enough for several rounds,
# reshuffles, claims and powers.
# the third game (a third seed, two seats) is the full form's only (marker long)
GAMES = [(4, "greedy", 1), (3, "random", 2), pytest.param(2, "greedy", 3, marks=pytest.mark.long)]


def _frozen_bytes(value: Any) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


class Watched:
    """A ruleset whose every call checks that it left its arguments as they were."""

    def __init__(self, ruleset: Ruleset) -> None:
        self._ruleset = ruleset
        self.calls = 0
        # id -> (object, its bytes after the last call): the next call on the same object starts
        # from them instead of pickling it again (pickling was most of this test's time)
        self._after: dict[int, tuple[Any, bytes]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def _bytes(self, value: Any) -> bytes:
        known = self._after.get(id(value))
        return known[1] if known is not None and known[0] is value else _frozen_bytes(value)

    def _checked(self, name: str, *args: Any) -> Any:
        before = [self._bytes(a) for a in args]
        out = getattr(self._ruleset, name)(*args)
        after = [_frozen_bytes(a) for a in args]
        for i, (b, a) in enumerate(zip(before, after)):
            assert a == b, f"{self._ruleset.name}.{name} changed its argument {i} ({type(args[i]).__name__}) in place"
        self._after = {id(a): (a, b) for a, b in zip(args, after)}
        self.calls += 1
        return out

    def decide(self, state: Any, seat: int | None, command: Any, key: bytes) -> tuple[Any, ...]:
        events = self._checked("decide", state, seat, command, key)
        for event in events:
            for viewer in self._viewers(state):
                self._checked("redact", event, viewer)
        return events  # type: ignore[no-any-return]

    def evolve(self, state: Any, event: Any) -> Any:
        new = self._checked("evolve", state, event)
        self.read_everything(new)
        return new

    def view(self, state: Any, seat: int | None) -> Any:
        return self._checked("view", state, seat)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        return self._checked("legal_actions", state, seat)  # type: ignore[no-any-return]

    def read_everything(self, state: Any) -> None:
        """Every read-only function of the protocol, for every seat and a spectator."""
        for name in ("is_terminal", "scores", "awaiting", "deadlines", "summary", "cards_in_play", "full_pack"):
            self._checked(name, state)
        for viewer in self._viewers(state):
            self._checked("view", state, viewer)
            if viewer is not None:
                self._checked("legal_actions", state, viewer)

    def _viewers(self, state: Any) -> list[int | None]:
        return [None, *range(len(self._ruleset.scores(state)))]


@pytest.mark.parametrize("name", rules.names())
@pytest.mark.parametrize(("players", "bot", "seed"), GAMES)
def test_no_ruleset_function_changes_the_state_it_is_given(name: str, players: int, bot: str, seed: int) -> None:
    watched = Watched(rules.get(name))
    result = play(watched, players, {}, seed, bot)  # type: ignore[arg-type]
    assert result.violations == []
    assert result.terminal
    assert watched.calls > 1000


class _MutatingView:
    """A ruleset whose view writes into a container the state holds (the bug to catch)."""

    def __init__(self, ruleset: Ruleset, mutate: Callable[[Any], None]) -> None:
        self._ruleset = ruleset
        self._mutate = mutate

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def view(self, state: Any, seat: int | None) -> Any:
        self._mutate(state)
        return self._ruleset.view(state, seat)


def test_the_check_catches_a_change_made_in_place() -> None:
    def sneak(state: Any) -> None:
        state.options["sneaked"] = True  # Least Score keeps its options as a dict

    watched = Watched(_MutatingView(rules.get("least-score"), sneak))  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="least-score.view changed its argument 0"):
        play(watched, 2, {}, 1, "greedy")  # type: ignore[arg-type]
