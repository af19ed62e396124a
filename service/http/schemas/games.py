"""marshmallow 4 schemas of games: creating, joining, reading, playing, their life around the rules
(votes, invitations) and standing orders; and of players' registration and the rulesets."""
from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

MAX_SAFE = 2**53 - 1


class StrictInt(fields.Integer):
    """An integer that is really a JSON integer (not a bool, float or string)."""

    def _validated(self, value: Any) -> Any:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._validated(value)


class StrictBool(fields.Boolean):
    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


def _hex_even(value: str) -> None:
    if len(value) % 2:
        raise ValidationError("must have an even number of hex digits")


HEX_ENTROPY = fields.String(validate=[validate.Regexp(r"^([0-9a-fA-F]{2}){1,64}$",
                                                      error="must be 1 to 64 bytes as hex"), _hex_even])


# ------------------------------------------------------------------ requests

class PlayerIn(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    bot = StrictBool(load_default=False)  # a bot's account: shown as one, its games unrated by default


class GameIn(Schema):
    class Meta:
        unknown = RAISE

    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = StrictInt(strict=True, required=True, validate=validate.Range(min=2, max=10))
    options = fields.Dict(keys=fields.String(validate=validate.Length(max=64)), values=fields.Raw(allow_none=True),
                          load_default=dict)
    name = fields.String(validate=validate.Length(min=1, max=100), load_default=None)
    take_seat = StrictBool(load_default=True)
    entropy = fields.String(validate=HEX_ENTROPY.validators, load_default=None)


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
    # absent: rated unless a bot account takes a seat (docs/ratings.md)
    rated = StrictBool(load_default=None)


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


class OrderIn(Schema):
    """A ``PlaceOrder`` without its ``type``; the ruleset checks the claim's fields."""

    class Meta:
        unknown = INCLUDE

    rank = fields.String(required=True, validate=validate.Length(min=1, max=2))
    claim = fields.String(required=True, validate=validate.Length(min=1, max=64))


class JoinIn(Schema):
    class Meta:
        unknown = RAISE

    entropy = fields.String(validate=HEX_ENTROPY.validators, load_default=None)
    invite_code = fields.String(validate=validate.Length(min=1, max=64), load_default=None)  # an unlisted game's


class CommandIn(Schema):
    """A command as listed in ``legal_actions``; the ruleset checks the other fields."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))


class EventsQuery(Schema):
    class Meta:
        unknown = EXCLUDE

    after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=0)
    wait = fields.Integer(validate=validate.Range(min=0, max=30), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=1000), load_default=500)


class StreamQuery(Schema):
    class Meta:
        unknown = EXCLUDE

    after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=0)
    # the stream ends after this many seconds (never later than Config.stream_max_seconds)
    max_seconds = fields.Integer(validate=validate.Range(min=1, max=3600), load_default=None)
    # with it, the stream also carries the game's chat messages numbered above it (docs/chat.md)
    chat_after = fields.Integer(validate=validate.Range(min=0, max=MAX_SAFE), load_default=None)


# ------------------------------------------------------------------ responses

class PlayerOut(Schema):
    id = fields.String()
    name = fields.String()
    token = fields.String()
    bot = fields.Boolean()


class SeatOut(Schema):
    seat = fields.Integer()
    player_id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    entropy = fields.String(allow_none=True)
    status = fields.String()  # "playing" | "resigned" | "bot" | "empty"
    reserved_for = fields.Raw(allow_none=True)  # {player_id, name} of an invited player
    timeouts_in_row = fields.Integer()
    vacation_until = fields.String(allow_none=True)
    bot = fields.Boolean()  # the player's account is a bot's


class DeadlineOut(Schema):
    """When the current wait times out (docs/rules/README.md) and what then happens automatically."""

    kind = fields.String()  # "turn" (also the initial peek) or "final_window"
    at = fields.String()
    since = fields.String()
    seats = fields.List(fields.Integer())  # whose turns (or initial peeks) time out
    per_seat = fields.Raw()  # [{seat, at, automatic, vacation_until}]: each awaited seat's deadline


class GameOut(Schema):
    id = fields.String()
    ruleset = fields.String()
    name = fields.String()
    options = fields.Raw()
    status = fields.String()
    seats = fields.List(fields.Nested(SeatOut))
    creator = fields.String()
    round = fields.Raw(allow_none=True)
    phase = fields.Raw(allow_none=True)
    turn = fields.Raw(allow_none=True)
    dealer = fields.Raw(allow_none=True)
    scores = fields.Raw(allow_none=True)
    awaiting = fields.List(fields.Integer())
    secret_commitment = fields.String()
    secret = fields.String(allow_none=True)
    version = fields.Integer()
    chain_head = fields.String()
    updated_at = fields.String()
    deadline = fields.Nested(DeadlineOut, allow_none=True)
    your_seat = fields.Integer(allow_none=True)
    visibility = fields.String()
    time_control = fields.Raw(allow_none=True)
    winners = fields.Raw(allow_none=True)
    ranking = fields.Raw(allow_none=True)
    votes = fields.Raw()
    timeouts_before_vote = fields.Integer()
    rematch_of = fields.String(allow_none=True)
    next_game = fields.String(allow_none=True)
    invite_code = fields.String()  # only to a seated player of an unlisted game
    rated = fields.Boolean()
    tournament = fields.Dict(allow_none=True)  # the tournament a table belongs to (docs/tournaments.md)
    rating_changes = fields.Raw(allow_none=True)  # a finished rated game's: per seat, before and after
    checkpoint = fields.String()  # only in the answer to a change of the game (docs/fairness.md)


class JoinOut(Schema):
    seat = fields.Integer()
    game = fields.Nested(GameOut)


class ViewOut(Schema):
    """The hot payload (every view and every command's answer): nested structures that
    :func:`service.model.views.view` already builds as plain JSON (seats, legal actions, the
    table) are ``Raw``, and every value is JSON already, so an answer picks the fields without
    marshmallow's per-field work (``service.http.requests.passed_through``)."""

    PASS_THROUGH = True

    game_id = fields.String()
    ruleset = fields.String()
    status = fields.String()
    seat = fields.Integer(allow_none=True)
    version = fields.Integer()
    chain_head = fields.String()
    awaiting = fields.List(fields.Integer())
    legal_actions = fields.Raw()  # list of commands, each a JSON object
    seats = fields.Raw()  # list of SeatOut-shaped objects (views.seats_public)
    table = fields.Raw(allow_none=True)
    deadline = fields.Raw(allow_none=True)  # DeadlineOut-shaped (views.deadline_out), already JSON
    tournament = fields.Raw(allow_none=True)  # views.tournament_out


class EventOut(Schema):
    version = fields.Integer()
    type = fields.String()
    actor = fields.Integer(allow_none=True)
    at = fields.String(allow_none=True)
    data = fields.Raw()
    bot = fields.String()  # only on a move a server bot made for the actor's seat


class EventsOut(Schema):
    events = fields.List(fields.Nested(EventOut))
    next_after = fields.Integer()
    version = fields.Integer()
    chain_head = fields.String()
    more = fields.Boolean()


class CommandOut(Schema):
    PASS_THROUGH = True  # its values, and its view's, are JSON already (see ViewOut)

    version = fields.Integer()
    chain_head = fields.String()
    checkpoint = fields.String()  # the game's signed checkpoint at version (docs/fairness.md)
    events = fields.Raw()  # EventOut-shaped objects (views.present_record), already JSON
    view = fields.Nested(ViewOut)  # absent under Prefer: return=minimal
    view_patch = fields.Raw()  # RFC 6902 operations from the If-Match version's view (return=minimal)
    consistency = fields.Raw()  # {size, hashes}: the proof from the checkpoint of ?proof_from's size


class OptionOut(Schema):
    key = fields.String()
    type = fields.String()
    default = fields.Raw(allow_none=True)
    description = fields.String()
    enum = fields.Raw()
    enum_also = fields.Raw()
    minimum = fields.Integer()
    maximum = fields.Integer()
    nullable = fields.Boolean()
    schema = fields.Raw()


class RulesetOut(Schema):
    name = fields.String()
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    options = fields.List(fields.Nested(OptionOut))
    defaults = fields.Raw()
    commands = fields.List(fields.String())
    system_commands = fields.List(fields.String())
    events = fields.List(fields.String())


class RulesetsOut(Schema):
    rulesets = fields.List(fields.Nested(RulesetOut))


class InvitationOut(Schema):
    seat = fields.Integer()
    player_id = fields.String()
    game = fields.Raw()  # GameOut-shaped


class InviteCodeOut(Schema):
    game_id = fields.String()
    invite_code = fields.String()


class OrderOut(Schema):
    order_id = fields.Integer()
    version = fields.Integer()
    chain_head = fields.String()
    checkpoint = fields.String()


class OrdersOut(Schema):
    orders = fields.Raw()  # the seat's live orders, as its view lists them
    version = fields.Integer()
    chain_head = fields.String()
