"""Deadlines (RULES §2.11, §7.6): nobody can stall a game by not moving.

Each game's current wait (a turn, the seats of an initial peek, a final window) has a
clock that starts with the event that began the wait (``service.gamestate.advance``).
When it has run longer than the service's timeout, the sweeper sends the ruleset's system
commands (``TurnTimedOut``, ``FinalWindowExpired``) as an ordinary append: version-checked,
so a player who moves at the last moment wins the race and the deadline is looked at again.

Every worker runs a :class:`Sweeper` thread; a PostgreSQL advisory lock lets one sweep at a
time. ``facedown deadlines sweep`` runs one pass by hand (or from cron).
"""
from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass

from events import game_index
from events.errors import StoreError
from service.games import Api, expire_deadline
from service.problems import Problem

log = logging.getLogger("facedown.deadlines")

#: pg_try_advisory_xact_lock key: one sweep at a time across workers and machines
SWEEP_LOCK = 0x66646C6E  # "fdln"


@dataclass(frozen=True)
class SweepResult:
    games_due: int
    commands_sent: int
    swept: bool  # False: another process held the sweep lock


def sweep(api: Api, limit: int = 500) -> SweepResult:
    """One pass: every game whose deadline has passed gets its system commands."""
    with api.db.connection() as conn, conn.transaction():
        if not conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (SWEEP_LOCK,)).fetchone()[0]:
            return SweepResult(0, 0, False)
        due = game_index.due(api.db, api.clock(), api.timeouts.turn, api.timeouts.final_window, limit)
        sent = 0
        for gid in due:
            try:
                sent += expire_deadline(api, gid)
            except (Problem, StoreError) as exc:  # one broken game must not stop the others
                log.warning("deadline of game %s not applied: %s", gid, exc)
        return SweepResult(len(due), sent, True)


class Sweeper:
    """A daemon thread sweeping every ``every`` seconds (jittered, so workers spread out)."""

    def __init__(self, api: Api, every: float) -> None:
        self.api, self.every = api, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="facedown-deadlines", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every * random.uniform(0.5, 1.5)):
            try:
                result = sweep(self.api)
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
