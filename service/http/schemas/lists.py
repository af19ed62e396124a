"""marshmallow 4 schemas of the lists of games (``GET /v1/games``, ``GET /v1/me/games``)."""
from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates

from service.usecases.lobby import available

STATUSES = ["open", "active", "finished", "aborted", "cancelled"]


class QueryBool(fields.Boolean):
    """``true`` / ``false`` in a query string."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if value not in ("true", "false"):
            raise ValidationError("must be true or false")
        return value == "true"


class ListQuery(Schema):
    """``GET /v1/games`` and ``GET /v1/me/games``."""

    class Meta:
        unknown = EXCLUDE

    status = fields.String(validate=validate.OneOf(STATUSES), load_default=None)
    ruleset = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    may_act = QueryBool(load_default=None)
    seats_free = fields.Integer(validate=validate.Range(min=0, max=10), load_default=None)
    cursor = fields.String(validate=validate.Length(min=1, max=400), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)
    wait = fields.Integer(validate=validate.Range(min=0, max=30), load_default=0)

    @validates("ruleset")
    def _known_ruleset(self, value: str, **_: Any) -> None:
        # a misspelled ruleset is refused with the names, not answered with an empty list
        if value is not None and value not in available():
            raise ValidationError(f"Must be one of: {', '.join(available())}.")


class IndexOut(Schema):
    id = fields.String()
    ruleset = fields.String()
    name = fields.String()
    status = fields.String()
    seats = fields.Raw()
    awaiting = fields.List(fields.Integer())
    updated_at = fields.String()
    version = fields.Integer()
    your_seat = fields.Integer(allow_none=True)
    your_turn = fields.Boolean()


class ListItemOut(IndexOut):
    """A game of a list: the index's fields and the life of the game as the caller sees it."""

    visibility = fields.String()
    free_seats = fields.Integer()
    round = fields.Integer(allow_none=True)
    scores = fields.Raw(allow_none=True)
    winners = fields.Raw(allow_none=True)
    deadline = fields.Raw(allow_none=True)
    time_control = fields.Raw(allow_none=True)
    creator = fields.String(allow_none=True)
    rematch_of = fields.String(allow_none=True)
    next_game = fields.String(allow_none=True)
    invited_seat = fields.Integer(allow_none=True)
    may_act = fields.Boolean()


class ListOut(Schema):
    games = fields.List(fields.Nested(ListItemOut))
    next_cursor = fields.String(allow_none=True)
