"""``GET /v1/games/{id}/audit`` and ``GET /v1/games/{id}/audit/view?seat=N&version=V``.

* ``audit``: a finished game's complete export (see :mod:`service.audit.export`) with
  the server's verification; for an active game only its finished rounds (409
  ``audit-unavailable`` while the first round is being played).
* ``audit/view``: exactly ``ruleset.view(state at V, seat N)`` with the version and
  the chain head at V. Allowed for the caller's own seat at any version, and for any
  seat at a version inside a finished round (or of a finished game); otherwise 403.

Both are costly (one re-adjudicates the whole game, the other folds it) and anyone may
ask, so both are in the costly rate class (``service.http.rate_limits``), and each worker keeps
the audits it built (:class:`AuditCache`): the audit of finished rounds never changes, so
it is built once per content and served again with a strong ``ETag`` (``If-None-Match``
→ 304).
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Blueprint, Flask, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from service.http import not_found
from service.audit import export as exporting
from service.audit.log import read_log, state_at
from service.model.problems import Problem
from service.http.rate_limits import costly

bp = Blueprint("audit", __name__)
_UUID = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_ASCII_INT = re.compile(r"[0-9]{1,12}")


def _store() -> Any:
    return current_app.extensions["facedown"].store


def _caller_player() -> str | None:
    """The bearer's player id, or None (anonymous) — authentication is the API's."""
    try:
        from service.http.requests import caller
    except ImportError:
        return None
    who = caller(required=False)
    return None if who is None else str(who[0])


def _game_id(game_id: str) -> uuid.UUID:
    # uuid.UUID() alone also takes braces, "urn:uuid:" and non-ASCII digits
    if _UUID.fullmatch(game_id) is None:
        raise Problem("not-found", not_found.malformed("game_id", "uuid"))
    return uuid.UUID(game_id)


def _events(game_id: str, upto: int | None = None) -> list[dict[str, Any]]:
    recorded = _store().read(_game_id(game_id), upto=upto)
    if not recorded or recorded[0].type != "GameOpened":
        raise Problem("not-found", "no such game")
    return [exporting.event_json(e) for e in recorded]


@dataclass(frozen=True, slots=True)
class Built:
    """One built audit: what it shows (upto version, finished), its body, ETag and when it
    was built (``time.monotonic``)."""

    shows: tuple[int, bool]
    body: bytes
    etag: str
    at: float


class AuditCache:
    """The audits this worker built, the latest per game, with the head version it was
    last checked at. A request at that head is answered from it with no read of the log;
    a newer head reads the log, and builds again only if what the audit shows changed (a
    round or the game ended). Bounded by ``max_bytes`` (the least recently used go first)
    and ``max_age`` seconds: the log is append-only, but the audit exists to catch an edit
    made around that, so no audit is served from a build older than that."""

    def __init__(self, max_bytes: int = 32 << 20, max_age: float = 60.0) -> None:
        self.max_bytes, self.max_age = max_bytes, max_age
        self._games: OrderedDict[uuid.UUID, tuple[int, Built]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.building = threading.Lock()  # one build at a time per worker: a burst waits for the first

    def latest(self, gid: uuid.UUID) -> tuple[int, Built] | None:
        """(head version last checked, the audit) if it was built less than ``max_age`` ago."""
        with self._lock:
            hit = self._games.get(gid)
            if hit is None or time.monotonic() - hit[1].at > self.max_age:
                return None
            self._games.move_to_end(gid)
            return hit

    def put(self, gid: uuid.UUID, head: int, built: Built) -> None:
        with self._lock:
            old = self._games.pop(gid, None)
            if old is not None:
                self._bytes -= len(old[1].body)
            self._games[gid] = (head, built)
            self._bytes += len(built.body)
            while self._bytes > self.max_bytes and len(self._games) > 1:
                _, (_, gone) = self._games.popitem(last=False)
                self._bytes -= len(gone.body)


def _cache() -> AuditCache:
    return current_app.extensions["facedown_audits"]  # type: ignore[no-any-return]


def _dumps(export: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(export, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # what orjson refuses (integers past 64 bits)
        return json.dumps(export, sort_keys=True, separators=(",", ":")).encode()


def _build(game_id: str, head: int, last: Built | None) -> Built:
    """The audit at ``head``: ``last`` if it shows the same, else built from the log."""
    events = _events(game_id, upto=head)
    log = read_log(events)
    shows = (log.finished_rounds_upto(), log.finished())
    if last is not None and last.shows == shows:
        return last
    try:
        out = exporting.build(game_id, events)
    except exporting.AuditUnavailable as exc:
        raise Problem("audit-unavailable", f"{exc}: the audit shows finished rounds only",
                      version=0) from None
    body = _dumps(out)
    return Built(shows, body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', time.monotonic())


@bp.get("/v1/games/<game_id>/audit")
@costly
def audit(game_id: str) -> ResponseReturnValue:
    gid = _game_id(game_id)
    head = _store().head(gid)
    if head is None:
        raise Problem("not-found", "no such game")
    cache, version = _cache(), head[0]
    hit = cache.latest(gid)
    if hit is None or hit[0] != version:
        with cache.building:
            hit = cache.latest(gid)  # built meanwhile by the request this one waited for?
            if hit is None or hit[0] != version:
                hit = (version, _build(game_id, version, None if hit is None else hit[1]))
                cache.put(gid, *hit)
    built = hit[1]
    headers = {"ETag": built.etag, "Cache-Control": "private, no-cache"}
    if request.if_none_match.contains_weak(built.etag.strip('"')):
        return Response(status=304, headers=headers)
    return Response(built.body, 200, headers=headers, mimetype="application/json")


def _int_arg(name: str, required: bool) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        if required:
            raise Problem("validation", f"{name} is required", errors={name: ["required"]})
        return None
    if not _ASCII_INT.fullmatch(raw):
        raise Problem("validation", f"{name} must be a non-negative integer", errors={name: ["not an integer"]})
    return int(raw)


@bp.get("/v1/games/<game_id>/audit/view")
@costly
def audit_view(game_id: str) -> ResponseReturnValue:
    events = _events(game_id)
    log = read_log(events)
    seat = _int_arg("seat", True)
    version = _int_arg("version", False)
    assert seat is not None
    last = int(events[-1]["version"])
    version = last if version is None else version
    if seat >= log.players:
        raise Problem("validation", f"seat must be below {log.players}", errors={"seat": ["no such seat"]})
    if version < 1 or version > last:
        raise Problem("validation", f"version must be between 1 and {last}", errors={"version": ["out of range"]})
    player = _caller_player()
    own = player is not None and log.seat_of.get(player) == seat
    if not own and version > log.finished_rounds_upto():
        raise Problem("forbidden", "another seat's view is shown only for finished rounds (or your own seat)",
                      status=403)
    state = state_at(log, version)
    if state is None:
        raise Problem("audit-unavailable", f"the cards are not dealt yet at version {version}")
    ruleset = log.ruleset
    assert ruleset is not None
    return jsonify(seat=seat, version=version, chain_head=events[version - 1]["hash"],
                   view=ruleset.view(state, seat))


def register(app: Flask) -> None:
    app.extensions["facedown_audits"] = AuditCache()
    app.register_blueprint(bp)
