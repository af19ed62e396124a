"""marshmallow 4 schemas of the game chat and the mutes (docs/chat.md). The text's limits
(trimmed, 1-500 characters, no control characters) are the use case's
(``service.model.chat.clean``): here only its type."""
from __future__ import annotations

from marshmallow import EXCLUDE, RAISE, Schema, fields, validate

MAX_SAFE = 2**53 - 1


class ChatIn(Schema):
    class Meta:
        unknown = RAISE

    text = fields.String(required=True)


class ReportIn(Schema):
    class Meta:
        unknown = RAISE

    reason = fields.String(required=True)


class MuteIn(Schema):
    class Meta:
        unknown = RAISE

    player_id = fields.String(required=True)


class ChatQuery(Schema):
    class Meta:
        unknown = EXCLUDE

    after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=100)


class PlayerRef(Schema):
    id = fields.String()
    name = fields.String(allow_none=True)
    handle = fields.String(allow_none=True)


class MessageOut(Schema):
    n = fields.Integer()
    seat = fields.Integer()
    player = fields.Nested(PlayerRef)
    text = fields.String()
    at = fields.String()


class MessagesOut(Schema):
    messages = fields.List(fields.Nested(MessageOut))


class ReportOut(Schema):
    game_id = fields.String()
    n = fields.Integer()
    reason = fields.String()
    at = fields.String()


class MuteOut(Schema):
    player = fields.Nested(PlayerRef)
    since = fields.String()


class MutesOut(Schema):
    mutes = fields.List(fields.Nested(MuteOut))
