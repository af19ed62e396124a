"""Whole games played in-process by bots, with the invariants checked at every step.

Invariants (each failure is recorded as a message in ``GameResult.violations``):

* **conservation** — every card of the pack is in exactly one place (as a multiset);
* **replay** — folding every event from scratch gives the same state;
* **legal actions accepted** — every command a bot picks from ``legal_actions`` (an entry
  may stand for many, :mod:`domain.choices`) is accepted by ``parse_command`` + ``decide``;
* **termination** — the game reaches a terminal state within ``max_steps`` commands.

Bots see only ``view(state, seat)`` and ``legal_actions(state, seat)``.
"""
from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import bots
from domain.choices import command, commands, count, pick
from domain.errors import RuleError
from domain.ruleset import Ruleset, fold


@dataclass
class GameResult:
    """What one simulated game produced."""

    events: list[Any] = field(default_factory=list)
    state: Any = None
    steps: int = 0
    rounds: int = 0
    terminal: bool = False
    violations: list[str] = field(default_factory=list)
    decide_evolve_seconds: float = 0.0
    decide_evolve_cpu_seconds: float = 0.0
    commands: list[tuple[int, Any]] = field(default_factory=list)  # (seat, action as sent), in order


def game_key(seed: int) -> bytes:
    """The chance key of simulated game ``seed`` (stands in for the service's secret)."""
    return hashlib.sha256(f"facedown-simulation/{seed}".encode()).digest()


def conservation_violation(ruleset: Ruleset, state: Any) -> str | None:
    have, want = Counter(ruleset.cards_in_play(state)), Counter(ruleset.full_pack(state))
    if have == want:
        return None
    return f"conservation: extra {dict(have - want)}, missing {dict(want - have)}"


def play(
    ruleset: Ruleset,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    bot: str = "random",
    max_steps: int = 20000,
    check_every: int = 1,
) -> GameResult:
    """Play one whole game; see the module docstring for what is checked."""
    rng = random.Random(seed)
    key = game_key(seed)
    resolved = ruleset.resolve_options(options or {}, players)
    policy = bots.policy(ruleset.name, bot)
    result = GameResult()
    t0, c0 = time.perf_counter(), time.thread_time()
    result.events = list(ruleset.start(players, resolved, key))
    state = fold(ruleset, result.events)
    result.decide_evolve_seconds += time.perf_counter() - t0
    result.decide_evolve_cpu_seconds += time.thread_time() - c0
    seats = list(range(players))
    while not ruleset.is_terminal(state):
        if result.steps >= max_steps:
            result.violations.append(f"termination: not over after {max_steps} commands")
            break
        awaited = set(ruleset.awaiting(state))
        rng.shuffle(seats)
        chosen: tuple[int, Any] | None = None
        for seat in seats:
            actions = ruleset.legal_actions(state, seat)
            if not actions:
                if seat in awaited:
                    result.violations.append(f"awaiting seat {seat} has no legal action")
                continue
            action = policy(ruleset.view(state, seat), actions, rng, seat in awaited)
            if action is None and seat in awaited:
                action = pick(actions[rng.randrange(len(actions))], rng)
            if action is not None:
                chosen = (seat, command(action))
                break
        if chosen is None:
            result.violations.append("termination: nobody can act")
            break
        seat, action = chosen
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            new_events = ruleset.decide(state, seat, ruleset.parse_command(action), key)
        except RuleError as exc:
            result.violations.append(f"legal action refused: seat {seat} {action}: {exc.code} {exc.detail}")
            break
        for event in new_events:
            state = ruleset.evolve(state, event)
        result.decide_evolve_seconds += time.perf_counter() - t0
        result.decide_evolve_cpu_seconds += time.thread_time() - c0
        result.events.extend(new_events)
        result.commands.append((seat, action))
        result.steps += 1
        if check_every and result.steps % check_every == 0:
            problem = conservation_violation(ruleset, state)
            if problem:
                result.violations.append(f"step {result.steps}: {problem}")
                break
    result.rounds = sum(1 for e in result.events if type(e).__name__ == "RoundScored")
    result.terminal = ruleset.is_terminal(state)
    if fold(ruleset, result.events) != state:
        result.violations.append("replay: folding the events gives another state")
    result.state = state
    return result


def play_in_seat_order(ruleset: Ruleset, players: int, options: Mapping[str, Any], key: bytes, bot: str,
                       seed: int, max_steps: int = 20000) -> tuple[Any, list[tuple[int, Any]]]:
    """A whole game driven as ``facedown_client.play_seats`` drives one over HTTP: the first seat in
    seat order whose bot acts sends its command, then every seat looks again; seat ``s``
    draws from ``random.Random(seed + s)``. With the game's key (the service's secret and the
    seats' entropy) it makes the same moves as the same bots over the API. The final state
    and the (seat, command) sent, in order."""
    policy = bots.policy(ruleset.name, bot)
    rngs = [random.Random(seed + s) for s in range(players)]
    state = fold(ruleset, list(ruleset.start(players, options, key)))
    sent: list[tuple[int, Any]] = []
    while not ruleset.is_terminal(state) and len(sent) < max_steps:
        awaited = set(ruleset.awaiting(state))
        for seat in range(players):
            actions = ruleset.legal_actions(state, seat)
            if not actions:
                continue
            action = policy(ruleset.view(state, seat), actions, rngs[seat], seat in awaited)
            if action is None and seat in awaited:
                action = pick(actions[rngs[seat].randrange(len(actions))], rngs[seat])
            if action is not None:
                action = command(action)
                break
        else:
            raise RuntimeError("nobody acts and the game is not over")
        for event in ruleset.decide(state, seat, ruleset.parse_command(action), key):
            state = ruleset.evolve(state, event)
        sent.append((seat, action))
    return state, sent


def replay_commands(ruleset: Ruleset, players: int, options: Mapping[str, Any] | None, seed: int,
                    commands: list[tuple[int, Any]]) -> Any:
    """The state after dealing game ``seed`` and deciding and evolving ``commands`` (as
    :func:`play` recorded them) back to back: the rules engine alone, with no bot between steps."""
    key = game_key(seed)
    resolved = ruleset.resolve_options(options or {}, players)
    state = fold(ruleset, list(ruleset.start(players, resolved, key)))
    decide, evolve, parse = ruleset.decide, ruleset.evolve, ruleset.parse_command
    for seat, action in commands:
        for event in decide(state, seat, parse(action), key):
            state = evolve(state, event)
    return state


def fastest_replay(ruleset: Ruleset, players: int, options: Mapping[str, Any] | None,
                   games: list[tuple[int, list[tuple[int, Any]]]], repeats: int) -> tuple[float, float, list[Any]]:
    """Replay every ``(seed, commands)`` of ``games`` ``repeats`` times (:func:`replay_commands`):
    the fewest wall-clock and thread-CPU seconds of a whole pass (the least disturbed by the
    rest of the machine), and the final states of the last pass."""
    wall = cpu = float("inf")
    finals: list[Any] = []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.thread_time()
        finals = [replay_commands(ruleset, players, options, seed, commands) for seed, commands in games]
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.thread_time() - c0)
    return wall, cpu, finals


#: An entry standing for more commands than this is checked on a sample of them.
SAMPLED = 64


def allowed_sample(entry: Any, rng: random.Random, size: int = SAMPLED) -> list[Any]:
    """The entry as it stands and the commands it allows: all of them, or ``size`` picked at random."""
    if count(entry) <= size:
        return [entry, *commands(entry)]
    return [entry, *(pick(entry, rng) for _ in range(size))]


def check_legal_actions_accepted(ruleset: Ruleset, state: Any, seat: int, key: bytes) -> list[str]:
    """Every legal action of ``seat`` is accepted by decide (messages for those refused): each
    entry as it stands and the commands it allows (a sample of them when there are many)."""
    problems = []
    rng = random.Random(0)
    for entry in ruleset.legal_actions(state, seat):
        for action in allowed_sample(entry, rng):
            try:
                ruleset.decide(state, seat, ruleset.parse_command(action), key)
            except RuleError as exc:
                problems.append(f"{action}: {exc.code} {exc.detail}")
    return problems
