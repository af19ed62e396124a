"""A game's events as one seat (or a spectator) may see them: a page, a long-poll, a stream."""
from __future__ import annotations

import json
import uuid
from typing import Any

from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.usecases import reading
from service.http.schemas import games as s
from service.http.requests import caller, deps, load_query, reply
from service.http.streaming import Page, last_event_id, long_poll, settings, sse

bp = Blueprint("game_events", __name__)
_events_q, _stream_q, _event_out, _events_out = s.EventsQuery(), s.StreamQuery(), s.EventOut(), s.EventsOut()


@bp.get("/v1/games/<uuid:game_id>/events")
def events(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_events_q)
    d = deps()
    name, seat = reading.reader(d, game_id, who[0] if who else None)
    page = long_poll(d.live, str(game_id), q["wait"],
                     lambda: reading.events_page(d, game_id, seat, q["after"], q["limit"], name))
    return reply(_events_out, page, 200, {"Cache-Control": "no-store"})


def _sse_message(event: dict[str, Any]) -> str:
    data = json.dumps(_event_out.dump(event), separators=(",", ":"), ensure_ascii=False)
    return f"id: {event['version']}\nevent: {event['type']}\ndata: {data}\n\n"


@bp.get("/v1/games/<uuid:game_id>/events/stream")
def event_stream(game_id: uuid.UUID) -> ResponseReturnValue:
    who = caller(required=False)
    q = load_query(_stream_q)
    last = last_event_id()
    after = q["after"] if last is None else last
    d = deps()
    name, seat = reading.reader(d, game_id, who[0] if who else None)
    config = settings()
    seconds = config.stream_max_seconds if q["max_seconds"] is None else min(q["max_seconds"],
                                                                            config.stream_max_seconds)

    def read(position: int) -> Page:
        page, found = reading.events_page(d, game_id, seat, position, 200, name)
        if not found:
            return Page([], position, False)
        return Page([_sse_message(e) for e in page["events"]], page["next_after"], page["more"])

    return sse(d.live, str(game_id), f"events of game {game_id} after {after}", read, after, seconds,
               page=(who[0], game_id) if who else None)
