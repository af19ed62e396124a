"""marshmallow 4 schemas of the ratings (``GET /v1/ratings/{ruleset}``; docs/ratings.md)."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate


class BoardQuery(Schema):
    class Meta:
        unknown = EXCLUDE

    cursor = fields.String(validate=validate.Length(min=1, max=400), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=200), load_default=50)


class RatedPlayerOut(Schema):
    id = fields.String()
    name = fields.String()
    handle = fields.String(allow_none=True)
    bot = fields.Boolean()


class BoardItemOut(Schema):
    player = fields.Nested(RatedPlayerOut)
    rating = fields.Float()  # mu - 3 sigma
    mu = fields.Float()
    sigma = fields.Float()
    games = fields.Integer()
    provisional = fields.Boolean()


class BoardOut(Schema):
    ruleset = fields.String()
    ratings = fields.List(fields.Nested(BoardItemOut))
    next_cursor = fields.String(allow_none=True)
