"""The service's own events (a game's lobby, its life around the rules, its secret) as schemas.

They are public to every reader of the game (``service.model.views.public_event``); their
fields are those ``service.model.seating``, ``service.usecases.lobby``, ``service.usecases.game_life`` and
``service.usecases.vacation`` write, as docs/lifecycle.md lists them.
"""
from __future__ import annotations

import json
from typing import Any

_S: dict[str, Any] = {"type": "string"}
_I: dict[str, Any] = {"type": "integer"}
_SEATS: dict[str, Any] = {"type": "array", "items": _I}
_T: dict[str, Any] = {"$ref": "#/components/schemas/Timestamp"}  # RFC 3339, UTC, ending in Z


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    # copies: a YAML dump writes a dict met twice as an anchor and an alias
    props = json.loads(json.dumps({**required, **(optional or {})}))
    return {"type": "object", "required": list(required), "properties": props}


def game_opened(ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
    """``GameOpened`` of a game of ``ruleset``, whose ``options`` are that ruleset's (the
    schema ``GameOpenedData`` is one of these per ruleset)."""
    return _obj(
        {"ruleset": {"type": "string", "const": ruleset}, "seats": _I, "options": options,
         "name": _S, "creator": _S, "secret_commitment": _S},
        # absent from games opened before each was introduced
        {"time_control": {"type": ["object", "null"], "required": ["turn_seconds", "final_window_seconds"],
                          "properties": {"turn_seconds": _I, "final_window_seconds": _I}},
         "visibility": {"type": "string", "enum": ["public", "unlisted"]},
         "timeouts_before_vote": _I, "rematch_of": {"type": ["string", "null"]}, "rated": {"type": "boolean"}})


#: Every service event but ``GameOpened`` (:func:`game_opened`), by type.
SERVICE_EVENTS: dict[str, dict[str, Any]] = {
    "SeatTaken": _obj({"seat": _I, "player_id": _S, "name": _S, "entropy": _S}, {"bot_account": {"type": "boolean"}}),
    "SecretRevealed": _obj({"secret": _S}),
    "SeatReserved": _obj({"seat": _I, "player_id": _S, "name": _S, "by": _S}),
    "InvitationDeclined": _obj({"seat": _I, "player_id": _S}),
    "SeatLeft": _obj({"seat": _I, "player_id": _S}),
    "GameCancelled": _obj({"by": _S}),
    "SeatResigned": _obj({"seat": _I, "player_id": _S}),
    "GameConcluded": _obj({"reason": _S, "winners": _SEATS}, {"ranking": _SEATS}),
    "VoteCast": _obj({"seat": _I, "voter": _I, "kind": {"type": "string", "enum": ["replace_with_bot", "abort"]}}),
    "SeatReplaced": _obj({"seat": _I, "bot": _S, "reason": _S}),
    "GameAborted": _obj({"reason": _S, "seat": _I}),
    "SeatReclaimed": _obj({"seat": _I, "player_id": _S}),
    "ClockPaused": _obj({"seat": _I, "player_id": _S, "from": _T, "until": _T}),
    "ClockResumed": _obj({"seat": _I, "player_id": _S, "at": _T}),
    "RematchOpened": _obj({"next_game": _S, "by": _S}),
}
