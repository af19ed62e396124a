"""Routes of reaching a player whose page is closed (docs/reaching-players.md): the e-mail
address (``/v1/me/email``) and signing in by e-mail (``/v1/session/email``), the server's
VAPID key and the player's push subscriptions, and their notification settings. The
unsubscribe links of e-mails are in ``routes/unsubscribe.py``.

Every answer about the player is theirs alone (``Cache-Control: private, no-store``); the
address is in no other answer of the service. The routes a caller uses without signing in
(verifying an address, asking for a code by e-mail) spend the address's costly budget, as
signing in does.
"""
from __future__ import annotations

import uuid

from flask import Blueprint, Response
from flask.typing import ResponseReturnValue

from service.http.rate_limits import per_address
from service.http.requests import deps, json_body, load, reply, signed_in
from service.http.schemas import reach as rs
from service.usecases import emails, notification_settings, push_keys, push_subscriptions

bp = Blueprint("reach", __name__)
_PRIVATE = {"Cache-Control": "private, no-store"}
_email_in, _verify_in, _email_out, _code_out = rs.EmailIn(), rs.VerifyIn(), rs.EmailOut(), rs.SignInEmailOut()
_sub_in, _sub_out, _subs_out = rs.PushSubscriptionIn(), rs.PushSubscriptionOut(), rs.PushSubscriptionsOut()
_settings_in, _settings_out, _key_out = rs.SettingsIn(), rs.SettingsOut(), rs.VapidKeyOut()


@bp.put("/v1/me/email")
def put_email() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_email_in, json_body())
    return reply(_email_out, emails.set_email(deps(), pid, data["email"]), 202, _PRIVATE)


@bp.delete("/v1/me/email")
def delete_email() -> ResponseReturnValue:
    emails.forget(deps(), signed_in())
    return Response(status=204, headers=_PRIVATE)


@bp.post("/v1/me/email/verify")
@per_address
def verify_email() -> ResponseReturnValue:
    data = load(_verify_in, json_body())
    return reply(_email_out, emails.verify(deps(), data["token"]), 200, _PRIVATE)


@bp.post("/v1/session/email")
@per_address
def sign_in_by_email() -> ResponseReturnValue:
    data = load(_email_in, json_body())
    return reply(_code_out, emails.sign_in_by_email(deps(), data["email"]), 202, {"Cache-Control": "no-store"})


@bp.get("/v1/push/vapid-key")
def vapid_key() -> ResponseReturnValue:
    # the same for the server's whole life: made once, kept
    key = push_keys.server_key(deps()).public_key
    return reply(_key_out, {"public_key": key}, 200, {"Cache-Control": "public, max-age=3600"})


@bp.post("/v1/me/push-subscriptions")
def add_push_subscription() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_sub_in, json_body())
    keys = data["keys"]
    shown, created = push_subscriptions.subscribe(deps(), pid, data["endpoint"], keys["p256dh"], keys["auth"])
    return reply(_sub_out, shown, 201 if created else 200, _PRIVATE)


@bp.get("/v1/me/push-subscriptions")
def list_push_subscriptions() -> ResponseReturnValue:
    return reply(_subs_out, push_subscriptions.listing(deps(), signed_in()), 200, _PRIVATE)


@bp.delete("/v1/me/push-subscriptions/<uuid:subscription_id>")
def remove_push_subscription(subscription_id: uuid.UUID) -> ResponseReturnValue:
    push_subscriptions.remove(deps(), signed_in(), subscription_id)
    return Response(status=204, headers=_PRIVATE)


@bp.get("/v1/me/notification-settings")
def get_settings() -> ResponseReturnValue:
    return reply(_settings_out, notification_settings.current(deps(), signed_in()), 200, _PRIVATE)


@bp.put("/v1/me/notification-settings")
def put_settings() -> ResponseReturnValue:
    pid = signed_in()
    data = load(_settings_in, json_body())
    return reply(_settings_out, notification_settings.change(deps(), pid, data), 200, _PRIVATE)
