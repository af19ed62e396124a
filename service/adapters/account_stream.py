"""A player's own stream: loaded as an :class:`~service.model.account.Account`, appended to
with a version check, each event's read-model rows written in the same statement."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from events import chat, players
from events.errors import ConcurrencyError
from events.store import EventStore, NewEvent
from service.model.account import Account, evolve, fold
from service.model.game import moment
from service.model.problems import Problem

MAX_TRIES = 5


def effects(pid: uuid.UUID, type_: str, data: Any, at: str) -> list[players.Effect]:
    """The read-model writes of one player event (the same in its append and in a rebuild)."""
    when = moment(at) if at else None
    if type_ == "PlayerRegistered":
        return [players.player_effect(pid, data["name"], data["token_sha256"], data.get("handle"), when,
                                      bool(data.get("bot")))]
    if type_ == "HandleChanged":
        return [players.handle_effect(pid, data["handle"])]
    if type_ == "TokenIssued":
        return [players.token_effect(uuid.UUID(data["token_id"]), pid, data["token_sha256"], data["label"], when)]
    if type_ == "TokenRevoked":
        assert when is not None
        return [players.revoke_effect(uuid.UUID(data["token_id"]), when)]
    if type_ == "VacationStarted":
        return [players.vacation_effect(pid, moment(data["from"]), moment(data["until"]))]
    if type_ == "VacationEnded":
        return [players.vacation_end_effect(pid, moment(data["at"]))]
    if type_ == "SignInCodeIssued":
        assert when is not None
        return [players.signin_code_effect(uuid.UUID(data["code_id"]), pid, data["code_sha256"], when,
                                           moment(data["expires_at"]))]
    if type_ == "SignInCodeUsed":
        assert when is not None
        return [players.signin_code_used_effect(uuid.UUID(data["code_id"]), when)]
    if type_ == "PlayerMuted":  # a game chat's mutes (service/usecases/mutes.py)
        return [chat.mute_effect(data["player_id"], at)]
    if type_ == "PlayerUnmuted":
        return [chat.unmute_effect(data["player_id"])]
    return []


def load(store: EventStore, pid: str) -> tuple[Account, int]:
    """A player's account at its stream's head (404 if there is none)."""
    try:
        sid = uuid.UUID(pid)
    except ValueError:
        raise Problem("not-found", "no such player") from None
    acct, version = fold(store.read(sid))
    if acct is None:
        raise Problem("not-found", "no such player")
    return acct, version


Decide = Callable[[Account], list[NewEvent]]


def update(store: EventStore, pid: str, decide: Decide) -> Account:
    """load → decide → append on the player's stream, version-checked and retried; each
    event's read-model rows are written in the same statement."""
    sid = uuid.UUID(pid)
    for _ in range(MAX_TRIES):
        acct, version = load(store, pid)
        events = decide(acct)
        if not events:
            return acct
        writes = [x for e in events for x in effects(sid, e.type, e.data, str(e.metadata.get("at")))]
        try:
            store.append(sid, version, events, kind="player", notify=False, effects=writes)
        except ConcurrencyError:
            continue
        for e in events:
            acct = evolve(acct, e.type, e.data, str(e.metadata.get("at")), pid)
        return acct
    raise Problem("conflict", "your account changed too often; try again")
