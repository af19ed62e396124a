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
from marshmallow import Schema, fields, validate

from service.usecases import inbox
from service.http.requests import api, caller, json_body, load, load_query, reply
from service.http.streaming import Page, last_event_id, long_poll, settings, sse
from service.model.notifications import KINDS, wake_key
from service.usecases import webhooks as registration

bp = Blueprint("account", __name__)
MAX_SAFE = 2**53 - 1


class NotificationsQuery(Schema):
    after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=0)
    wait = fields.Integer(validate=validate.Range(min=0, max=30), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=500), load_default=100)


class StreamQuery(Schema):
    after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=None)
    max_seconds = fields.Integer(validate=validate.Range(min=1, max=3600), load_default=None)


class WebhookIn(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    events = fields.List(fields.String(validate=validate.OneOf(KINDS)), validate=validate.Length(min=1, max=20),
                         load_default=lambda: list(KINDS))


class DeliveriesQuery(Schema):
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class NotificationOut(Schema):
    seq = fields.Integer()
    kind = fields.String()
    game_id = fields.String(allow_none=True)
    version = fields.Integer(allow_none=True)
    seats = fields.List(fields.Integer())
    at = fields.String()
    data = fields.Dict()


class NotificationsOut(Schema):
    notifications = fields.List(fields.Nested(NotificationOut))
    next_after = fields.Integer()


class WebhookOut(Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    enabled = fields.Boolean()
    failures = fields.Integer()
    disabled_reason = fields.String(allow_none=True)
    created_at = fields.String()


class CreatedWebhookOut(WebhookOut):
    secret = fields.String()  # shown once


class WebhooksOut(Schema):
    webhooks = fields.List(fields.Nested(WebhookOut))


class AttemptOut(Schema):
    attempt = fields.Integer()
    at = fields.String()
    status = fields.Integer(allow_none=True)
    error = fields.String(allow_none=True)
    duration_ms = fields.Integer(allow_none=True)


class DeliveryOut(Schema):
    id = fields.String()
    webhook_id_header = fields.String()
    seq = fields.Integer()
    kind = fields.String()
    status = fields.String()
    attempts = fields.Integer()
    last_status = fields.Integer(allow_none=True)
    last_error = fields.String(allow_none=True)
    created_at = fields.String()
    finished_at = fields.String(allow_none=True)
    next_attempt_at = fields.String(allow_none=True)
    attempt_log = fields.List(fields.Nested(AttemptOut))


class DeliveriesOut(Schema):
    deliveries = fields.List(fields.Nested(DeliveryOut))


_notifications_q, _stream_q, _webhook_in, _deliveries_q = NotificationsQuery(), StreamQuery(), WebhookIn(), \
    DeliveriesQuery()
_notifications_out, _webhook_out, _webhooks_out, _deliveries_out = NotificationsOut(), CreatedWebhookOut(), \
    WebhooksOut(), DeliveriesOut()


def _player() -> str:
    who = caller()
    assert who is not None
    return who[0]


@bp.get("/v1/me/notifications")
def notifications() -> ResponseReturnValue:
    player = _player()
    q = load_query(_notifications_q)
    a = api()
    page = long_poll(a.live, wake_key(player), q["wait"], lambda: inbox.page(a, player, q["after"], q["limit"]))
    return reply(_notifications_out, page, 200, {"Cache-Control": "no-store"})


def _message(n: dict[str, object]) -> str:
    return f"id: {n['seq']}\nevent: {n['kind']}\ndata: {json.dumps(n, separators=(',', ':'))}\n\n"


@bp.get("/v1/me/stream")
def stream() -> ResponseReturnValue:
    player = _player()
    q = load_query(_stream_q)
    last = last_event_id()
    a = api()
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
    return sse(a.live, wake_key(player), "your account's notifications", read, after, seconds, first)


@bp.post("/v1/me/webhooks")
def add_webhook() -> ResponseReturnValue:
    player = _player()
    data = load(_webhook_in, json_body())
    out = registration.add(api(), player, data["url"], data["events"], settings().webhooks_allow_private)
    return reply(_webhook_out, out, 201, {"Location": f"/v1/me/webhooks/{out['id']}", "Cache-Control": "no-store"})


@bp.get("/v1/me/webhooks")
def webhooks() -> ResponseReturnValue:
    return reply(_webhooks_out, {"webhooks": registration.listing(api(), _player())})


@bp.delete("/v1/me/webhooks/<uuid:webhook_id>")
def remove_webhook(webhook_id: uuid.UUID) -> ResponseReturnValue:
    registration.remove(api(), _player(), webhook_id)
    return Response(status=204)


@bp.get("/v1/me/webhooks/<uuid:webhook_id>/deliveries")
def deliveries(webhook_id: uuid.UUID) -> ResponseReturnValue:
    player = _player()
    q = load_query(_deliveries_q)
    return reply(_deliveries_out, {"deliveries": registration.deliveries(api(), player, webhook_id, q["limit"])})
