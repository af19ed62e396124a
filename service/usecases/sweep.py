"""Deadlines (docs/rules/README.md): nobody can stall a game by not moving.

Each game's current wait (a turn, the seats of an initial peek, a final window) has a
clock that starts with the event that began the wait (``service.model.game.advance``) and
runs on the game's own time control, standing still while an awaited player is on
vacation (``service.model.clock``). The game index holds the moment each game next falls
due (``deadline_due``, written with every append), so finding the games due is an index
scan. The sweeper then makes the server's moves (``service.usecases.playing.play``): the
ruleset's system commands (``TurnTimedOut``, ``FinalWindowExpired``) for a wait that timed out or awaits a
resigned seat, and a bot's move for a seat a vote replaced, each as an ordinary append:
version-checked, so a player who moves at the last moment wins the race.

Every worker runs a :class:`Sweeper` thread; a PostgreSQL advisory lock
(``events.locks.sweep_lock``) lets one sweep at a time. ``facedown deadlines sweep`` runs one
pass by hand (or from cron).
"""
from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass

from events import game_index, locks
from events.errors import StoreError
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies
from service.usecases import tournaments
from service.usecases.playing import play
from service.usecases.reminders import remind

log = logging.getLogger("facedown.deadlines")


@dataclass(frozen=True)
class SweepResult:
    games_due: int
    commands_sent: int
    swept: bool  # False: another process held the sweep lock


def sweep(deps: Dependencies, limit: int = 500) -> SweepResult:
    """One pass: every game whose deadline has passed gets the server's moves."""
    with locks.sweep_lock(deps.db) as held:
        if not held:
            return SweepResult(0, 0, False)
        due = game_index.due(deps.db, deps.clock(), limit)
        sent = 0
        for gid in due:
            try:
                sent += play(deps, gid)
            except (Problem, StoreError) as exc:  # one broken game must not stop the others
                log.warning("deadline of game %s not applied: %s", gid, exc)
        try:  # tournaments due to start, and rounds a crash left unformed
            tournaments.sweep(deps)
        except (Problem, StoreError) as exc:
            log.warning("tournaments not swept: %s", exc)
        try:
            remind(deps, deps.deadline_soon_fraction)
        except StoreError as exc:
            log.warning("deadline reminders not sent: %s", exc)
        return SweepResult(len(due), sent, True)


class Sweeper:
    """A daemon thread sweeping every ``every`` seconds (jittered, so workers spread out)."""

    def __init__(self, deps: Dependencies, every: float) -> None:
        self.deps, self.every = deps, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="facedown-deadlines", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every * random.uniform(0.5, 1.5)):
            try:
                result = sweep(self.deps)
                if result.commands_sent:
                    log.info("deadlines: %d system commands sent to %d games", result.commands_sent,
                             result.games_due)
            except StoreError as exc:  # the database is away: try again next time
                log.warning("deadline sweep failed: %s", exc)
            except Exception:  # noqa: BLE001 - the thread must outlive any one bad pass
                log.exception("deadline sweep failed")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
