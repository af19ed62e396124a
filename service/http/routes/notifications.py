"""The player's own account: one stream of news for every game, and webhooks.

* ``GET /v1/me/stream``: Server-Sent Events. The first message (``event: inbox``) lists every
  game that waits for the caller, with its deadline; then each notification as it happens
  (``id:`` its number, ``event:`` its kind). Resumable with ``Last-Event-ID``.
* ``GET /v1/me/notifications?after=N&wait=S``: the same sequence as a long-poll.
* ``/v1/me/webhooks``: register (the secret is shown once), list, remove, and the delivery log.
"""
from __future__ import annotations

import json
import uuid

from flask import Blueprint, Response
from flask.typing import ResponseReturnValue

from service.http.requests import caller, deps, json_body, load, load_query, reply
from service.http.schemas import accounts as s
from service.http.streaming import Page, last_event_id, long_poll, settings, sse
from service.model.notifications import wake_key
from service.usecases import inbox, webhooks

bp = Blueprint("notifications", __name__)
_notifications_q, _stream_q, _webhook_in, _deliveries_q = (s.NotificationsQuery(), s.AccountStreamQuery(),
                                                           s.WebhookIn(), s.DeliveriesQuery())
_notifications_out, _webhook_out, _webhooks_out, _deliveries_out = (s.NotificationsOut(), s.CreatedWebhookOut(),
                                                                    s.WebhooksOut(), s.DeliveriesOut())


def _player() -> str:
    who = caller()
    assert who is not None
    return who[0]


@bp.get("/v1/me/notifications")
def notifications() -> ResponseReturnValue:
    player = _player()
    q = load_query(_notifications_q)
    a = deps()
    page = long_poll(a.live, wake_key(player), q["wait"], lambda: inbox.page(a, player, q["after"], q["limit"]))
    return reply(_notifications_out, page, 200, {"Cache-Control": "no-store"})


def _message(n: dict[str, object]) -> str:
    return f"id: {n['seq']}\nevent: {n['kind']}\ndata: {json.dumps(n, separators=(',', ':'))}\n\n"


@bp.get("/v1/me/stream")
def stream() -> ResponseReturnValue:
    player = _player()
    q = load_query(_stream_q)
    last = last_event_id()
    a = deps()
    config = settings()
    seconds = config.stream_max_seconds if q["max_seconds"] is None else min(q["max_seconds"],
                                                                            config.stream_max_seconds)
    start: list[int] = []  # where the feed begins: after the inbox's own position, unless resumed

    def first() -> str:
        box = inbox.inbox(a, player)
        start.append(box["seq"])
        return f"event: inbox\ndata: {json.dumps(box, separators=(',', ':'))}\n\n"

    def read(position: int) -> Page:
        if position < 0:  # a fresh stream: the notifications after the inbox
            position = start[0] if start else 0
        page, _ = inbox.page(a, player, position, 200)
        items = page["notifications"]
        return Page([_message(n) for n in items], page["next_after"], len(items) == 200)

    after = last if last is not None else (q["after"] if q["after"] is not None else -1)
    return sse(a.live, wake_key(player), "your account's notifications", read, after, seconds, first,
               page=(player, None))


@bp.post("/v1/me/webhooks")
def add_webhook() -> ResponseReturnValue:
    player = _player()
    data = load(_webhook_in, json_body())
    out = webhooks.add(deps(), player, data["url"], data["events"], settings().webhooks_allow_private)
    return reply(_webhook_out, out, 201, {"Location": f"/v1/me/webhooks/{out['id']}", "Cache-Control": "no-store"})


@bp.get("/v1/me/webhooks")
def list_webhooks() -> ResponseReturnValue:
    return reply(_webhooks_out, {"webhooks": webhooks.listing(deps(), _player())})


@bp.delete("/v1/me/webhooks/<uuid:webhook_id>")
def remove_webhook(webhook_id: uuid.UUID) -> ResponseReturnValue:
    webhooks.remove(deps(), _player(), webhook_id)
    return Response(status=204)


@bp.get("/v1/me/webhooks/<uuid:webhook_id>/deliveries")
def deliveries(webhook_id: uuid.UUID) -> ResponseReturnValue:
    player = _player()
    q = load_query(_deliveries_q)
    return reply(_deliveries_out, {"deliveries": webhooks.deliveries(deps(), player, webhook_id, q["limit"])})
