"""marshmallow 4 schemas of the payloads of a game's life and of a player's account."""
from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates, validates_schema

from service.api.schemas import GameIn, IndexOut, StrictInt

STATUSES = ["open", "active", "finished", "aborted", "cancelled"]


class TimeControlIn(Schema):
    class Meta:
        unknown = RAISE

    turn_seconds = StrictInt(strict=True, load_default=None)
    final_window_seconds = StrictInt(strict=True, load_default=None)


class GameCreateIn(GameIn):
    """``POST /v1/games``: the rules' fields, and how the game lives (time control, visibility)."""

    # absent: the service's defaults; null: a game without a clock
    time_control = fields.Nested(TimeControlIn, allow_none=True, load_default=lambda: {})
    visibility = fields.String(validate=validate.OneOf(["public", "unlisted"]), load_default="public")


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
        from service.lobby import available

        if value is not None and value not in available():
            raise ValidationError(f"Must be one of: {', '.join(available())}.")


class VoteIn(Schema):
    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(["replace_with_bot", "abort"]))
    seat = StrictInt(strict=True, load_default=None, validate=validate.Range(min=0, max=9))


class InvitationIn(Schema):
    class Meta:
        unknown = RAISE

    player_id = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    handle = fields.String(validate=validate.Length(min=1, max=64), load_default=None)

    @validates_schema
    def _one(self, data: dict[str, Any], **_: Any) -> None:
        if (data.get("player_id") is None) == (data.get("handle") is None):
            raise ValidationError("name the player by player_id or by handle", "player_id")


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


# ------------------------------------------------------------------ responses

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


class InvitationOut(Schema):
    seat = fields.Integer()
    player_id = fields.String()
    game = fields.Raw()  # GameOut-shaped


class InviteCodeOut(Schema):
    game_id = fields.String()
    invite_code = fields.String()


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

