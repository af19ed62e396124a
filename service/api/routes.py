"""Routes of the game API: each turns HTTP into one use case of :mod:`service.games`."""
from __future__ import annotations

import json
import logging
import random
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, request
from flask.typing import ResponseReturnValue

from domain import rules
from events import game_index
from service import games
from service.api import schemas as s
from service.api.http import (api, caller, idempotency_key, json_body, load, load_query, reply,
                              version_header)
from service.gamestate import summary, view
from service.problems import Problem

bp = Blueprint("api", __name__)
OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"

_player_in, _game_in, _join_in, _command_in = s.PlayerIn(), s.GameIn(), s.JoinIn(), s.CommandIn()
_games_q, _events_q, _stream_q = s.GamesQuery(), s.EventsQuery(), s.StreamQuery()
_event_out = s.EventOut()
log = logging.getLogger(__name__)
_VERSION_RE = re.compile(r"[0-9]{1,15}")
_player_out, _game_out, _join_out, _view_out = s.PlayerOut(), s.GameOut(), s.JoinOut(), s.ViewOut()
_events_out, _command_out, _list_out, _rulesets_out = s.EventsOut(), s.CommandOut(), s.GameListOut(), s.RulesetsOut()


@bp.get("/openapi.yaml")
def openapi() -> ResponseReturnValue:
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


@bp.post("/v1/players")
def create_player() -> ResponseReturnValue:
    data = load(_player_in, json_body())
    out = games.register_player(api(), data["name"])
    return reply(_player_out, out, 201, {"Cache-Control": "no-store"})


@bp.get("/v1/rulesets")
def list_rulesets() -> ResponseReturnValue:
    out = []
    for name in games.available():
        rs = rules.get(name)
        out.append({"name": rs.name, "title": rs.title, "min_players": rs.min_players,
                    "max_players": rs.max_players, "options": [o.schema() for o in rs.options],
                    "defaults": {o.key: o.default for o in rs.options}, "commands": sorted(rs.command_types)})
    return reply(_rulesets_out, {"rulesets": out})


@bp.post("/v1/games")
def create_game() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    data = load(_game_in, body)
    entropy = bytes.fromhex(data["entropy"]) if data["entropy"] else None
    cur, seat = games.create_game(api(), who, data["ruleset"], data["seats"], data["options"], data["name"],
                                  data["take_seat"], entropy, idempotency_key(), body)
    out = summary(cur.game, cur.version, cur.head, api().timeouts) | {"your_seat": seat}
    return reply(_game_out, out, 201, {"Location": f"/v1/games/{cur.game.id}", "ETag": f'"{cur.version}"'})


def _index_out(row: game_index.IndexRow, player: str | None) -> dict[str, Any]:
    seat = next((x["seat"] for x in row.seats if player and x.get("player_id") == player), None)
    return {"id": str(row.id), "ruleset": row.ruleset, "name": row.name, "status": row.status,
            "seats": row.seats, "awaiting": row.awaiting, "updated_at": row.updated_at.isoformat(),
            "version": row.version, "your_seat": seat, "your_turn": seat is not None and seat in row.awaiting}


@bp.get("/v1/games")
def list_games() -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_games_q)
    rows = game_index.listing(api().db, q["status"], q["limit"])
    return reply(_list_out, {"games": [_index_out(r, who[0] if who else None) for r in rows]})


@bp.get("/v1/me/games")
def my_games() -> ResponseReturnValue:
    who = caller()
    assert who is not None
    q = load_query(_games_q)
    rows = game_index.of_player(api().db, uuid.UUID(who[0]), 1000)
    out = [_index_out(r, who[0]) for r in rows if q["status"] in (None, r.status)]
    out.sort(key=lambda g: not g["your_turn"])  # stable: awaiting first, then most recent
    return reply(_list_out, {"games": out[:q["limit"]]})


@bp.get("/v1/games/<uuid:game_id>")
def get_game(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    cur = games.load(api(), game_id)
    etag = f'"{cur.version}"'
    inm = version_header("If-None-Match")
    if inm is not None and (inm == [] or cur.version in inm):
        return Response(status=304, headers={"ETag": etag})
    out = summary(cur.game, cur.version, cur.head, api().timeouts) | {"your_seat": cur.game.seat_of(who[0]) if who else None}
    return reply(_game_out, out, 200, {"ETag": etag, "Vary": "Authorization"})


@bp.post("/v1/games/<uuid:game_id>/join")
def join(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body(optional=True)
    data = load(_join_in, body)
    entropy = bytes.fromhex(data["entropy"]) if data["entropy"] else None
    cur, seat = games.join_game(api(), game_id, who, entropy, idempotency_key(), body)
    out = {"seat": seat, "game": summary(cur.game, cur.version, cur.head, api().timeouts) | {"your_seat": seat}}
    return reply(_join_out, out, 200, {"ETag": f'"{cur.version}"'})


@bp.get("/v1/games/<uuid:game_id>/view")
def get_view(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    cur = games.load(api(), game_id)
    etag = f'"{cur.version}"'
    inm = version_header("If-None-Match")
    if inm is not None and (inm == [] or cur.version in inm):
        return Response(status=304, headers={"ETag": etag, "Vary": "Authorization"})
    seat = cur.game.seat_of(who[0]) if who else None
    return reply(_view_out, view(cur.game, cur.version, cur.head, seat, api().timeouts), 200,
                 {"ETag": etag, "Vary": "Authorization", "Cache-Control": "private, no-cache"})


@bp.post("/v1/games/<uuid:game_id>/commands")
def command(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller()
    assert who is not None
    body = json_body()
    load(_command_in, body)
    im = version_header("If-Match")
    if_match = None if im is None or im == [] else im[0]
    if im is not None and len(im) > 1:
        raise Problem("bad-request", "If-Match must name one version")
    out = games.run_command(api(), game_id, who[0], body, if_match, idempotency_key(), request.path)
    return reply(_command_out, out, 200, {"ETag": f'"{out["version"]}"'})


def _reader(game_id: uuid.UUID, who: tuple[str, str] | None) -> tuple[games.Api, str, int | None]:
    """For reading a game's events: the API, the game's ruleset, and the caller's seat (None:
    a spectator or an anonymous caller)."""
    a = api()
    name = games.ruleset_of(a, game_id)
    seat = games.load(a, game_id).game.seat_of(who[0]) if who is not None else None
    return a, name, seat


@bp.get("/v1/games/<uuid:game_id>/events")
def events(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_events_q)
    a, name, seat = _reader(game_id, who)
    config = current_app.extensions["facedown"].config
    # the server may cap long-polls below the documented 30 s (Config.long_poll_max)
    deadline = time.monotonic() + min(q["wait"], config.long_poll_max)
    if q["wait"] == 0 or config.long_poll_max <= 0:
        page, _ = games.events_page(a, game_id, seat, q["after"], q["limit"], name)
        return reply(_events_out, page, 200, {"Cache-Control": "no-store"})
    # registered before the re-check: a hint cannot slip between the check and the wait;
    # woken by a hint for this game (or after a listener reconnect), else on the rare timer
    with a.live.waiters().watch(str(game_id)) as watch:
        while True:
            page, found = games.events_page(a, game_id, seat, q["after"], q["limit"], name)
            remaining = deadline - time.monotonic()
            if found or remaining <= 0:
                return reply(_events_out, page, 200, {"Cache-Control": "no-store"})
            watch.wait(min(remaining, _jittered(config.recheck_seconds)))


def _jittered(seconds: float) -> float:
    """Timer re-checks spread over ±25 %: waiters that started together must not re-query together."""
    return seconds * random.uniform(0.75, 1.25)


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        return None
    if _VERSION_RE.fullmatch(raw) is None:
        raise Problem("bad-request", "Last-Event-ID must be an event version (a non-negative integer)")
    return int(raw)


def _sse_message(event: dict[str, Any]) -> str:
    data = json.dumps(_event_out.dump(event), separators=(",", ":"), ensure_ascii=False)
    return f"id: {event['version']}\nevent: {event['type']}\ndata: {data}\n\n"


def _sse(a: games.Api, game_id: uuid.UUID, seat: int | None, name: str, after: int, seconds: float,
         heartbeat: float, recheck: float) -> Iterator[str]:
    """The stream's body: catch up, then wait for hints; heartbeats; ends after ``seconds``."""
    start = time.monotonic()
    deadline, beat = start + seconds, start + heartbeat
    try:
        with a.live.waiters().watch(str(game_id)) as watch:
            # sent at once: the client knows the stream is open (and how soon to reconnect)
            yield f"retry: 1000\n: events of game {game_id} after {after}\n\n"
            while True:
                page, found = games.events_page(a, game_id, seat, after, 200, name)
                if found:
                    after = page["next_after"]
                    if page["events"]:
                        yield "".join(_sse_message(e) for e in page["events"])
                        beat = time.monotonic() + heartbeat
                    if page["more"]:
                        continue
                now = time.monotonic()
                if now >= deadline:
                    yield ": the stream ends here; reconnect with Last-Event-ID\n\n"
                    return
                if now >= beat:
                    yield ": heartbeat\n\n"
                    beat = now + heartbeat
                watch.wait(min(deadline - now, beat - now, _jittered(recheck)))
    except Exception:  # noqa: BLE001 - the headers are sent: end the stream, the client resumes
        log.exception("event stream of game %s ended by an error", game_id)


@bp.get("/v1/games/<uuid:game_id>/events/stream")
def event_stream(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_stream_q)
    last = _last_event_id()
    after = q["after"] if last is None else last
    a, name, seat = _reader(game_id, who)
    config = current_app.extensions["facedown"].config
    seconds = config.stream_max_seconds if q["max_seconds"] is None else min(q["max_seconds"],
                                                                            config.stream_max_seconds)
    body = _sse(a, game_id, seat, name, after, seconds, config.stream_heartbeat_seconds, config.recheck_seconds)
    return Response(body, 200, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Vary": "Authorization"})
