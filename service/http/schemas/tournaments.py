"""marshmallow 4 schemas of tournaments (docs/tournaments.md): opening one, the list, and one
tournament with its players, rounds, standings and boards."""
from __future__ import annotations

from marshmallow import EXCLUDE, RAISE, Schema, fields, validate

from service.http.schemas.games import StrictBool, StrictInt, TimeControlIn

FORMATS = ["swiss", "round_robin"]
STATUSES = ["open", "running", "finished", "cancelled"]


class TournamentIn(Schema):
    """``POST /v1/tournaments``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(validate=validate.Length(max=64)), values=fields.Raw(allow_none=True),
                          load_default=dict)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    seats_per_table = StrictInt(strict=True, required=True, validate=validate.Range(min=2, max=10))
    # Swiss: required; a round robin: at most this many of its schedule's rounds (absent: all)
    rounds = StrictInt(strict=True, load_default=None, validate=validate.Range(min=1, max=50))
    # absent: the service's defaults; null: games without a clock
    time_control = fields.Nested(TimeControlIn, allow_none=True, load_default=lambda: {})
    duplicate = StrictBool(load_default=False)
    max_players = StrictInt(strict=True, required=True, validate=validate.Range(min=2, max=256))
    starts_at = fields.AwareDateTime(load_default=None)
    join = StrictBool(load_default=True)  # the creator plays in it


class ListQuery(Schema):
    class Meta:
        unknown = EXCLUDE

    status = fields.String(validate=validate.OneOf(STATUSES), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class TournamentItemOut(Schema):
    id = fields.String()
    name = fields.String()
    ruleset = fields.String()
    format = fields.String()
    seats_per_table = fields.Integer()
    round_count = fields.Integer(allow_none=True)
    duplicate = fields.Boolean()
    max_players = fields.Integer()
    starts_at = fields.String(allow_none=True)
    creator = fields.String()
    created_at = fields.String()
    updated_at = fields.String()
    status = fields.String()
    player_count = fields.Integer()
    current_round = fields.Integer(allow_none=True)


class TournamentListOut(Schema):
    tournaments = fields.List(fields.Nested(TournamentItemOut))


class PlayerOut(Schema):
    id = fields.String()
    name = fields.String()


class TableOut(Schema):
    game_id = fields.String()
    players = fields.List(fields.String())


class RoundOut(Schema):
    n = fields.Integer()
    status = fields.String()
    tables = fields.List(fields.Nested(TableOut))
    byes = fields.List(fields.String())


class StandingOut(Schema):
    rank = fields.Integer()
    player = fields.String()
    name = fields.String()
    points = fields.Float()
    tiebreaks = fields.List(fields.Float())
    games = fields.Integer()
    byes = fields.Integer()


class BoardOut(Schema):
    n = fields.Integer()
    commitment = fields.String(allow_none=True)
    seed = fields.String(allow_none=True)


class TournamentOut(TournamentItemOut):
    options = fields.Dict()
    time_control = fields.Dict(allow_none=True)
    version = fields.Integer()
    players = fields.List(fields.Nested(PlayerOut))
    rounds = fields.List(fields.Nested(RoundOut))
    standings = fields.List(fields.Nested(StandingOut))
    boards = fields.List(fields.Nested(BoardOut))
