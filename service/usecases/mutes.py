"""A player's mutes (docs/chat.md): the players whose chat messages they will not see, in the
game chat, its stream or their notifications. Events of the player's own stream
(``PlayerMuted {player_id}``, ``PlayerUnmuted {player_id}``), projected into ``player_mutes``
by the same append (``service.adapters.account_stream``)."""
from __future__ import annotations

import uuid
from typing import Any

from events import chat as rows
from events import players
from events.store import NewEvent
from service.adapters import account_stream
from service.model.account import Account
from service.model.game import iso, metadata
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies

MUTED, UNMUTED = "PlayerMuted", "PlayerUnmuted"


def _player(raw: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        raise Problem("validation", "player_id: must be a player's id",
                      errors={"player_id": ["must be a player's id (a UUID)"]}) from None


def listing(deps: Dependencies, pid: str) -> dict[str, Any]:
    return {"mutes": [{"player": {"id": str(m), "name": name, "handle": handle}, "since": iso(at)}
                      for m, name, handle, at in rows.mutes(deps.db, pid)]}


def mute(deps: Dependencies, pid: str, raw: Any) -> dict[str, Any]:
    """Mute a player (a player muted already stays so: no new event)."""
    other = _player(raw)
    if str(other) == pid:
        raise Problem("validation", "player_id: you cannot mute yourself", errors={"player_id": ["is you"]})
    if players.by_id(deps.db, other) is None:
        raise Problem("not-found", f"no player {other}")
    at = deps.now()

    def decide(acct: Account) -> list[NewEvent]:
        if any(m == other for m, *_ in rows.mutes(deps.db, pid)):
            return []
        return [NewEvent(MUTED, {"player_id": str(other)}, metadata(at, None, pid))]

    account_stream.update(deps.store, pid, decide)
    return listing(deps, pid)


def unmute(deps: Dependencies, pid: str, other: uuid.UUID) -> None:
    """Unmute a player; 404 if they were not muted."""
    if not any(m == other for m, *_ in rows.mutes(deps.db, pid)):
        raise Problem("not-found", f"player {other} is not muted")
    at = deps.now()
    account_stream.update(deps.store, pid, lambda acct: [NewEvent(UNMUTED, {"player_id": str(other)},
                                                                  metadata(at, None, pid))])
