"""marshmallow 4 schemas of reaching a player whose page is closed: their e-mail address and
signing in by e-mail, push subscriptions, notification settings and unsubscribing.

The settings' own rules (time zones, HH:MM, leads, modes) are checked by
``service.model.reach``, which names the field it refuses; these schemas check the shape."""
from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate


class EmailIn(Schema):
    class Meta:
        unknown = RAISE

    email = fields.String(required=True, validate=validate.Length(min=1, max=320))


class VerifyIn(Schema):
    class Meta:
        unknown = RAISE

    token = fields.String(required=True, validate=validate.Length(min=1, max=200))


class EmailOut(Schema):
    email = fields.String(allow_none=True)
    email_verified = fields.Boolean()


class SignInEmailOut(Schema):
    expires_in = fields.Integer()


class VapidKeyOut(Schema):
    public_key = fields.String()


class PushKeysIn(Schema):
    class Meta:
        unknown = RAISE

    p256dh = fields.String(required=True, validate=validate.Length(min=1, max=200))
    auth = fields.String(required=True, validate=validate.Length(min=1, max=200))


def _moment_or_null(value: object) -> bool:
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise ValidationError("must be a number (milliseconds since 1970) or null")
    return True


class PushSubscriptionIn(Schema):
    """A browser's ``PushSubscription.toJSON()`` as it is: the endpoint and keys, and its
    ``expirationTime`` (null in every browser today), taken and not used."""

    class Meta:
        unknown = RAISE

    endpoint = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    keys = fields.Nested(PushKeysIn, required=True)
    expiration_time = fields.Raw(data_key="expirationTime", allow_none=True, load_default=None,
                                 validate=_moment_or_null)


class PushSubscriptionOut(Schema):
    id = fields.String()
    endpoint = fields.String()
    created_at = fields.String()
    last_success_at = fields.String(allow_none=True)
    last_failure_at = fields.String(allow_none=True)
    last_error = fields.String(allow_none=True)


class PushSubscriptionsOut(Schema):
    items = fields.List(fields.Nested(PushSubscriptionOut))


class SettingsIn(Schema):
    """Any part of the settings; what each part holds is checked by the model."""

    class Meta:
        unknown = RAISE

    time_zone = fields.Raw()
    quiet_hours = fields.Raw(allow_none=True)
    email = fields.Raw()
    push = fields.Raw()


class EmailChannelOut(Schema):
    turn = fields.String()
    reminders = fields.List(fields.Integer())
    game_over = fields.Boolean()
    invited = fields.Boolean()
    chat = fields.Boolean()


class PushChannelOut(Schema):
    turn = fields.Boolean()
    reminders = fields.List(fields.Integer())
    game_over = fields.Boolean()
    invited = fields.Boolean()
    chat = fields.Boolean()


class SettingsOut(Schema):
    time_zone = fields.String()
    quiet_hours = fields.Dict(allow_none=True)  # {from, to}
    email = fields.Nested(EmailChannelOut)
    push = fields.Nested(PushChannelOut)


class UnsubscribedOut(Schema):
    kind = fields.String()
    turned_off = fields.Dict()  # the change made to the settings: {"email": {...}}
