"""The audit as the API serves it: a game's export, built once per content and kept by the
worker (``service.model.caches.AuditCache``), and one seat's view at one version.

* the export: a finished game's complete log (:mod:`service.audit.export`) with the
  server's verification; for an active game only its finished rounds (409
  ``audit-unavailable`` while the first round is being played). The audit of finished
  rounds never changes, so it is built once per content and served again with a strong
  entity tag.
* a seat's view: exactly ``ruleset.view(state at V, seat N)`` with the version and the
  chain head at V; for the caller's own seat at any version, for any seat at a version
  inside a finished round (or of a finished game); otherwise 403.
"""
from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import orjson

from events.store import EventStore
from service.audit import export as exporting
from service.audit.log import GameLog, read_log, state_at
from service.model.caches import AuditCache
from service.model.problems import Problem


@dataclass(frozen=True, slots=True)
class Built:
    """One built audit: what it shows (upto version, finished), its body, entity tag and when
    it was built (``time.monotonic``)."""

    shows: tuple[int, bool]
    body: bytes
    etag: str
    at: float


def events_of(store: EventStore, gid: uuid.UUID, upto: int | None = None) -> list[dict[str, Any]]:
    """The game's events as an export lists them (404 if there is no such game)."""
    recorded = store.read(gid, upto=upto)
    if not recorded or recorded[0].type != "GameOpened":
        raise Problem("not-found", "no such game")
    return [exporting.event_json(e) for e in recorded]


def _dumps(export: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(export, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # what orjson refuses (integers past 64 bits)
        return json.dumps(export, sort_keys=True, separators=(",", ":")).encode()


def _build(store: EventStore, gid: uuid.UUID, game_id: str, head: int, last: Built | None) -> Built:
    """The audit at ``head``: ``last`` if it shows the same, else built from the log."""
    events = events_of(store, gid, upto=head)
    log = read_log(events)
    shows = (log.finished_rounds_upto(), log.finished())
    if last is not None and last.shows == shows:
        return last
    try:
        out = exporting.build(game_id, events, exporting.board_of(store, events))
    except exporting.AuditUnavailable as exc:
        raise Problem("audit-unavailable", f"{exc}: the audit shows finished rounds only",
                      version=0) from None
    body = _dumps(out)
    return Built(shows, body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', time.monotonic())


def audit(store: EventStore, cache: AuditCache, gid: uuid.UUID, game_id: str) -> Built:
    """The game's audit at its head (``game_id``: the id as the caller wrote it, which the
    export repeats), from ``cache`` when what it shows has not changed."""
    head = store.head(gid)
    if head is None:
        raise Problem("not-found", "no such game")
    version = head[0]
    hit = cache.latest(gid)
    if hit is None or hit[0] != version:
        with cache.building:
            hit = cache.latest(gid)  # built meanwhile by the request this one waited for?
            if hit is None or hit[0] != version:
                built = _build(store, gid, game_id, version, None if hit is None else cast(Built, hit[1]))
                cache.put(gid, version, built)
                return built
    return cast(Built, hit[1])


def log_of(store: EventStore, gid: uuid.UUID) -> tuple[list[dict[str, Any]], GameLog]:
    """The game's events and its log as the audit reads it (404 if there is no such game)."""
    events = events_of(store, gid)
    return events, read_log(events)


def seat_view(events: list[dict[str, Any]], log: GameLog, seat: int, version: int | None,
              player: Callable[[], str | None]) -> dict[str, Any]:
    """The view of ``seat`` at ``version`` (None: the last) of the game of ``events`` and
    ``log`` (:func:`log_of`), for the caller ``player()`` names (None: anonymous)."""
    last = int(events[-1]["version"])
    version = last if version is None else version
    if seat >= log.players:
        raise Problem("validation", f"seat must be below {log.players}", errors={"seat": ["no such seat"]})
    if version < 1 or version > last:
        raise Problem("validation", f"version must be between 1 and {last}", errors={"version": ["out of range"]})
    caller = player()
    own = caller is not None and log.seat_of.get(caller) == seat
    if not own and version > log.finished_rounds_upto():
        raise Problem("forbidden", "another seat's view is shown only for finished rounds (or your own seat)",
                      status=403)
    state = state_at(log, version)
    if state is None:
        raise Problem("audit-unavailable", f"the cards are not dealt yet at version {version}")
    ruleset = log.ruleset
    assert ruleset is not None
    return {"seat": seat, "version": version, "chain_head": events[version - 1]["hash"],
            "view": ruleset.view(state, seat)}
