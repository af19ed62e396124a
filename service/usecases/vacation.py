"""Vacation: a yearly allowance of days during which a player's clocks stand still.

A vacation is an event of the player's stream (``VacationStarted``, ``VacationEnded``),
charged by the day: all its days when it starts, only the days begun when it ends early.
Each game the player sits in then records it (``ClockPaused``, ``ClockResumed``), so
that its deadlines, and the audit's replay of them, need nothing but the game's own log.
A game that missed it (one dealt during the vacation, or an append that failed) records
it when its deadline comes: the sweep looks at the player's vacation before timing out
a seat (``service.usecases.playing.play``).
"""
from __future__ import annotations

import logging
import math
import uuid
from datetime import timedelta
from typing import Any

from events import game_index
from events.errors import StoreError
from events.store import NewEvent
from service.adapters import account_stream
from service.adapters.repository import Current, Decision, folded
from service.model.account import Account
from service.model.game import Game, iso, metadata, moment
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies

log = logging.getLogger("facedown.vacation")
DAY = 86400


def balance(deps: Dependencies, acct: Account) -> dict[str, Any]:
    """The caller's allowance this year, what is used of it and the vacation going on."""
    now = deps.clock()
    used = acct.days_used(now.year)
    allowance = deps.timeouts.vacation_days
    current = acct.vacation_at(iso(now))
    return {"allowance_days": allowance, "year": now.year, "used_days": used,
            "remaining_days": max(0, allowance - used),
            "current": None if current is None else {"from": current.start, "until": current.end,
                                                     "days": current.days}}


def start(deps: Dependencies, pid: str, days: int) -> dict[str, Any]:
    """Start a vacation of ``days`` days now; every game of the player records it."""
    now = deps.clock()
    at = iso(now)

    def decide(acct: Account) -> list[NewEvent]:
        if acct.vacation_at(at) is not None:
            raise Problem("already-on-vacation", "you are on vacation; end it before starting another")
        left = deps.timeouts.vacation_days - acct.days_used(now.year)
        if days > left:
            raise Problem("vacation-exhausted", f"{max(left, 0)} vacation day(s) are left this year",
                          remaining_days=max(left, 0))
        until = iso(now + timedelta(days=days))
        return [NewEvent("VacationStarted", {"from": at, "until": until, "days": days}, metadata(at, None, pid))]

    acct = account_stream.update(deps.store, pid, decide)
    vac = acct.vacations[-1]
    recorded = _fan_out(deps, pid, lambda game, seat: _paused(game, seat, pid, vac.start, vac.until, at))
    return {**balance(deps, acct), "games": recorded}


def end(deps: Dependencies, pid: str) -> dict[str, Any]:
    """End the vacation going on now; only the days begun are charged."""
    now = deps.clock()
    at = iso(now)

    def decide(acct: Account) -> list[NewEvent]:
        current = acct.vacation_at(at)
        if current is None:
            raise Problem("not-on-vacation", "you are not on vacation")
        begun = max(1, math.ceil((now - moment(current.start)).total_seconds() / DAY))
        return [NewEvent("VacationEnded", {"at": at, "days_charged": min(begun, current.days)},
                         metadata(at, None, pid))]

    acct = account_stream.update(deps.store, pid, decide)
    recorded = _fan_out(deps, pid, lambda game, seat: _resumed(game, seat, pid, at))
    return {**balance(deps, acct), "games": recorded,
            "ended": {"from": acct.vacations[-1].start, "at": at, "days_charged": acct.vacations[-1].cost}}


def _paused(game: Game, seat: int, pid: str, start_: str, until: str, at: str) -> list[NewEvent]:
    t = moment(start_)
    if any(p.player_id == pid and moment(p.start) == t for p in game.pauses):
        return []  # recorded already (by the sweep, or a retry)
    return [NewEvent("ClockPaused", {"seat": seat, "player_id": pid, "from": start_, "until": until},
                     metadata(at, None, pid, {"type": "Vacation"}))]


def _resumed(game: Game, seat: int, pid: str, at: str) -> list[NewEvent]:
    t = moment(at)
    if not any(p.seat == seat and moment(p.until) > t for p in game.pauses):
        return []
    return [NewEvent("ClockResumed", {"seat": seat, "player_id": pid, "at": at},
                     metadata(at, None, pid, {"type": "VacationEnded"}))]


def _fan_out(deps: Dependencies, pid: str, make: Any) -> int:
    """Record a vacation's start or end in each open or active game of the player; returns
    how many games recorded it (a game that fails now records a start at its deadline)."""
    done = 0
    for gid, _ in game_index.current_of(deps.db, uuid.UUID(pid)):
        def decide(cur: Current) -> Decision | None:
            game = cur.game
            seat = game.seat_of(pid)
            if seat is None or game.status not in ("open", "active"):
                return None
            events = make(game, seat)
            return Decision(folded(game, events, gid), events) if events else None

        try:
            done += deps.games.update(gid, decide) is not None
        except (Problem, StoreError) as exc:
            log.warning("vacation of %s not recorded in game %s: %s", pid, gid, exc)
    return done
