"""A game's events as one seat (or a spectator) may see them: a page, a long-poll, a stream."""
from __future__ import annotations

import json
import uuid
from typing import Any

from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.model.chat import stream_of
from service.usecases import chat, reading
from service.http.schemas import games as s
from service.http.schemas.chat import MessageOut
from service.http.requests import caller, deps, load_query, reply
from service.http.streaming import Page, last_event_id, long_poll, settings, sse

bp = Blueprint("game_events", __name__)
_events_q, _stream_q, _event_out, _events_out = s.EventsQuery(), s.StreamQuery(), s.EventOut(), s.EventsOut()
_chat_out = MessageOut()


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

    # the chat's own position, beside the game's: its frames carry no id (docs/chat.md)
    talk = {"after": q["chat_after"]}
    reader = who[0] if who else None

    def read(position: int) -> Page:
        page, found = reading.events_page(d, game_id, seat, position, 200, name)
        said = _chat_frames(d, game_id, reader, talk)
        if not found:
            return Page(said, position, len(said) == CHAT_PAGE)
        return Page([_sse_message(e) for e in page["events"]] + said, page["next_after"],
                    page["more"] or len(said) == CHAT_PAGE)

    also = () if talk["after"] is None else (str(stream_of(game_id)),)
    return sse(d.live, str(game_id), f"events of game {game_id} after {after}", read, after, seconds,
               page=(who[0], game_id) if who else None, also=also)


CHAT_PAGE = 50


def _chat_frames(d: Any, game_id: uuid.UUID, reader: str | None, talk: dict[str, Any]) -> list[str]:
    """The chat's news after the stream's chat position (when the client asked for it): each
    message as an ``event: chat`` frame, each hide of one it may have shown as ``event:
    chat_hidden``; moves the position on."""
    if talk["after"] is None:
        return []
    said, talk["after"] = chat.stream_news(d, game_id, reader, talk["after"], CHAT_PAGE)
    return [f"event: {kind}\ndata: " + json.dumps(_chat_out.dump(m) if kind == "chat" else m, separators=(",", ":"),
                                                  ensure_ascii=False) + "\n\n" for kind, m in said]
