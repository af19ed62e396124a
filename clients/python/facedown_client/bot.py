"""Bots that play through the API, as a well-behaved third-party client does.

A policy is ``policy(table, legal_actions, rng, must_act) -> action | None``: ``table`` is
the view's ``table`` as JSON, ``legal_actions`` the view's list, ``must_act`` whether the
game waits for this seat. It returns a command one of the entries allows (an entry with
``choices`` stands for many: :mod:`facedown_client.choices`), or ``None`` to let an
optional moment (a claim out of turn) pass. facedown's own policies (``domain.bots``) have
this shape, so ``facedown bot --policy greedy`` plays over HTTP exactly as in-process.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from facedown_client.choices import pick, pick_among
from facedown_client.client import Client
from facedown_client.errors import ProblemError
from facedown_client.models import View

Policy = Callable[[Any, Sequence[Any], random.Random, bool], Any]
#: the problems after which the bot reads the view again and decides anew
RETRYABLE = frozenset({"not-your-turn", "wrong-phase", "no-window", "stale-window", "illegal-command",
                       "precondition-failed", "conflict"})
#: the statuses of a game that is not over (finished, aborted and cancelled are)
PLAYING = ("open", "active")


def random_policy(table: Any, actions: Sequence[Any], rng: random.Random, must_act: bool) -> Any:
    """A random command type, then a random command of it (any the entries of that type allow,
    each as likely); optional claims now and then."""
    if not actions or (not must_act and rng.random() >= 0.05):
        return None
    kinds = sorted({a["type"] for a in actions})
    kind = kinds[rng.randrange(len(kinds))]
    return pick_among([a for a in actions if a["type"] == kind], rng)


def choose(view: View, policy: Policy, rng: random.Random) -> dict[str, Any] | None:
    """The action this seat sends now, or None: the policy's, else a random one when the game waits."""
    actions = view.legal_actions
    if not actions or view.status != "active":
        return None
    must = view.my_turn
    action = policy(view.raw["table"], actions, rng, must)
    if action is None and must:
        action = pick(actions[rng.randrange(len(actions))], rng)
    return action  # type: ignore[no-any-return]


def play_seats(clients: Sequence[Client], game_id: str, policy: Policy, seed: int = 0,
               max_commands: int = 20000, on_command: Callable[[int, dict[str, Any]], None] | None = None) -> int:
    """Play a whole game with one client per seat, in one thread: the first seat (in seat order)
    whose bot acts sends its command, then every seat looks again. Deterministic for a given
    deal and ``seed`` (seat ``s`` draws from ``random.Random(seed + s)``); returns the commands sent."""
    rngs = [random.Random(seed + s) for s in range(len(clients))]
    sent = 0
    while sent < max_commands:
        moved = False
        for seat, client in enumerate(clients):
            view = client.view(game_id)
            if view.status == "finished":
                return sent
            action = choose(view, policy, rngs[seat])
            if action is None:
                continue
            client.send(game_id, action)
            if on_command is not None:
                on_command(seat, action)
            sent += 1
            moved = True
            break
        if not moved:
            raise RuntimeError(f"game {game_id}: nobody acts and the game is not over")
    return sent


def play_turns(clients: Sequence[Client], game_id: str, policy: Policy, rng: random.Random,
               max_commands: int = 20000, *, minimal: bool = True) -> int:
    """Play a whole game with one client per seat, only ever as the awaited seat (no claims out
    of turn): the fewest requests a game needs, each command's answer bringing the next view
    (with ``minimal``, as a patch to the view held: ``Client.send(held=...)``).
    Returns the commands sent; ``RuntimeError`` if the game stalls or is not over in time."""
    view = clients[0].view(game_id)
    for sent in range(max_commands):
        if view.status == "finished":
            return sent
        if not view.awaiting:
            raise RuntimeError(f"game {game_id}: active but nobody is awaited")
        seat = view.awaiting[0]
        if view.seat != seat:
            view = clients[seat].view(game_id)
        if not view.legal_actions:
            raise RuntimeError(f"game {game_id}: awaited seat {seat} has no legal action")
        action = policy(view.raw["table"], view.legal_actions, rng, True)
        if action is None:
            action = pick(view.legal_actions[rng.randrange(len(view.legal_actions))], rng)
        view = clients[seat].send(game_id, action, held=view if minimal else None).view
    raise RuntimeError(f"game {game_id}: not finished after {max_commands} commands")


class Bot:
    """Plays every game of one player (or one game) whenever that player may act, and waits
    for news in between: the account's notifications where the server has them, else a
    long-poll on each game's events."""

    def __init__(self, client: Client, policy: Policy = random_policy, *, games: str = "all", seed: int | None = None,
                 wait: int = 30, log: Callable[[str], None] | None = None) -> None:
        self.client = client
        self.policy = policy
        self.games = games
        self.rng = random.Random(seed)
        self.wait = wait
        self.log = log or (lambda _message: None)
        self.sent = 0
        self.played: set[str] = set()  # the games it sent a command in
        self._lock = threading.Lock()

    def act(self, game_id: str) -> int:
        """Send commands in this game while this player may; the number sent."""
        sent = refused = 0
        while True:
            view = self.client.view(game_id)
            action = choose(view, self.policy, self.rng)
            if action is None:
                return sent
            try:
                self.client.send(game_id, action, held=view)
            except ProblemError as exc:
                refused += 1
                if exc.slug in RETRYABLE and refused < 20:
                    continue  # someone else moved first: look again
                raise
            sent += 1
            with self._lock:
                self.sent += 1
                self.played.add(game_id)
            self.log(f"{game_id} seat {view.seat}: {action}")

    def _watched(self) -> list[str]:
        """The games it plays that are not over yet."""
        if self.games != "all":
            return [self.games] if self.client.game(self.games).status in PLAYING else []
        return [g.id for status in PLAYING for g in self.client.my_games(status=status, limit=200)]

    def summary(self) -> str:
        """One line: the commands sent, in which games, and how those games stand now."""
        ids = sorted(self.played | ({self.games} if self.games != "all" else set()))
        statuses: dict[str, int] = {}
        for gid in ids:
            status = self.client.game(gid).status
            statuses[status] = statuses.get(status, 0) + 1
        stand = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
        return f"bot: {self.sent} commands sent in {len(ids)} game{'' if len(ids) == 1 else 's'}" + \
            (f" ({stand})" if stand else "")

    def _has_notifications(self) -> bool:
        try:
            self.client.request("GET", "/v1/me/notifications", params={"after": 0, "wait": 0})
            return True
        except ProblemError as exc:
            if exc.status in (404, 405):
                return False
            raise

    def run(self, until_done: bool = True, max_seconds: float | None = None) -> int:
        """Play until no watched game is open or active (or for ``max_seconds``); commands sent."""
        end = None if max_seconds is None else time.monotonic() + max_seconds
        if self._has_notifications():
            return self._run_on_notifications(until_done, end)
        return self._run_on_long_polls(until_done, end)

    def _run_on_notifications(self, until_done: bool, end: float | None) -> int:
        for gid in self._watched():
            self.act(gid)
        if until_done and not self._watched():
            return self.sent
        for note in self.client.notifications(wait=min(self.wait, 30)):
            if note.game_id and (self.games == "all" or note.game_id == self.games):
                self.act(note.game_id)
            if end is not None and time.monotonic() >= end:
                break
            if until_done and note.kind == "game_over" and not self._watched():
                break
        return self.sent

    def _run_on_long_polls(self, until_done: bool, end: float | None) -> int:
        threads: dict[str, threading.Thread] = {}
        while True:
            for gid in self._watched():
                if gid not in threads or not threads[gid].is_alive():
                    threads[gid] = threading.Thread(target=self._follow, args=(gid, end), daemon=True)
                    threads[gid].start()
            alive = [t for t in threads.values() if t.is_alive()]
            if until_done and not alive and not self._watched():
                return self.sent
            if end is not None and time.monotonic() >= end:
                return self.sent
            for t in alive:  # look for new games now and then
                t.join(timeout=max(1.0, self.wait / max(len(alive), 1)))

    def _follow(self, game_id: str, end: float | None) -> None:
        """Act, then long-poll this game's events until something happens; until it is finished."""
        after = 0
        while end is None or time.monotonic() < end:
            self.act(game_id)
            page = self.client.request("GET", f"/v1/games/{game_id}/events",
                                       params={"after": after, "wait": self.wait, "limit": 1000},
                                       timeout=self.wait + 15)
            after = page["next_after"]
            if any(e["type"] == "SecretRevealed" for e in page["events"]):
                return
            if not page["events"] and self.client.game(game_id).status not in PLAYING:
                return
