"""marshmallow 4 schemas of a player's account: profile, handle, vacations, tokens, the
notifications (long-poll and stream), webhooks, and the web client's session."""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from service.http.schemas.games import StrictInt
from service.model.notifications import KINDS

MAX_SAFE = 2**53 - 1


class VacationIn(Schema):
    class Meta:
        unknown = RAISE

    days = StrictInt(strict=True, required=True, validate=validate.Range(min=1, max=366))


class TokenIn(Schema):
    class Meta:
        unknown = RAISE

    label = fields.String(validate=validate.Length(min=1, max=64), load_default=None)


class HandleIn(Schema):
    class Meta:
        unknown = RAISE

    handle = fields.String(required=True, validate=validate.Length(min=1, max=64))


class LocaleIn(Schema):
    class Meta:
        unknown = RAISE

    locale = fields.String(required=True, validate=validate.Length(min=1, max=35))


class VacationOut(Schema):
    allowance_days = fields.Integer()
    year = fields.Integer()
    used_days = fields.Integer()
    remaining_days = fields.Integer()
    current = fields.Raw(allow_none=True)  # {from, until, days}
    games = fields.Integer()  # games that recorded the change now
    ended = fields.Raw()  # {from, at, days_charged}


class MeOut(Schema):
    id = fields.String()
    name = fields.String()
    handle = fields.String(allow_none=True)
    created_at = fields.String()
    vacation = fields.Nested(VacationOut)
    tokens = fields.Integer()
    locale = fields.String(allow_none=True)
    email = fields.String(allow_none=True)  # the owner's own answers only
    email_verified = fields.Boolean()
    email_sending = fields.Boolean()
    bot = fields.Boolean()


class TokenOut(Schema):
    id = fields.String()
    label = fields.String()
    created_at = fields.String()
    last_used_at = fields.String(allow_none=True)
    current = fields.Boolean()
    token = fields.String()  # only when issued


class TokensOut(Schema):
    tokens = fields.List(fields.Nested(TokenOut))


class ProfileOut(Schema):
    id = fields.String()
    handle = fields.String()
    name = fields.String()
    on_vacation_until = fields.String(allow_none=True)
    games = fields.Raw()  # {played, won, rulesets: {name: {played, won}}}
    bot = fields.Boolean()
    ratings = fields.Raw()  # {ruleset: {rating, mu, sigma, games, provisional, history: [...]}}


class NotificationsQuery(Schema):
    after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=0)
    wait = fields.Integer(validate=validate.Range(min=0, max=30), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=500), load_default=100)


class AccountStreamQuery(Schema):
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


class SessionIn(Schema):
    class Meta:
        unknown = RAISE

    token = fields.String(validate=validate.Length(min=1, max=200))
    code = fields.String(validate=validate.Length(min=1, max=40))

    @validates_schema
    def _one(self, data: dict[str, Any], **_: Any) -> None:
        if ("token" in data) == ("code" in data):
            raise ValidationError("send either token or code", "_schema")


class RegisterIn(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    handle = fields.String(load_default=None, validate=validate.Length(min=1, max=64))


class SessionPlayerOut(Schema):
    id = fields.String()
    name = fields.String()
    handle = fields.String(allow_none=True)


class SessionOut(Schema):
    signed_in = fields.Boolean()
    player = fields.Nested(SessionPlayerOut, allow_none=True)
    csrf_token = fields.String(allow_none=True)
    token = fields.String()  # a registration's token, shown once


class CodeOut(Schema):
    code = fields.String()
    expires_at = fields.String()
    expires_in = fields.Integer()
