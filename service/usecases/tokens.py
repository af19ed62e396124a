"""More than one bearer token per player: issue one per client, list them, revoke one.

Each is an event of the player's stream (``TokenIssued``, ``TokenRevoked``); only a
token's SHA-256 is ever stored, so rotating a token (issue a new one, revoke the old by
its id) never needs the old plaintext.
"""
from __future__ import annotations

import secrets as pysecrets
import uuid
from typing import Any

from events import players
from events.store import NewEvent
from service.adapters import account_stream
from service.model.account import Account
from service.model.game import iso, metadata
from service.model.problems import Problem
from service.usecases.accounts import forget_token, token_digest
from service.usecases.dependencies import Dependencies

MAX_TOKENS = 20


def issue(deps: Dependencies, pid: str, label: str | None) -> dict[str, Any]:
    """A new token for the caller (its plaintext is in this answer only)."""
    token = pysecrets.token_urlsafe(32)
    token_id = str(uuid.uuid4())
    at = deps.now()

    def decide(acct: Account) -> list[NewEvent]:
        live = acct.live_tokens()
        if len(live) >= MAX_TOKENS:
            raise Problem("too-many-tokens", f"a player may hold {MAX_TOKENS} tokens; revoke one first")
        name = label or f"token {len(acct.tokens) + 1}"
        return [NewEvent("TokenIssued", {"token_id": token_id, "token_sha256": token_digest(token), "label": name},
                         metadata(at, None, pid))]

    acct = account_stream.update(deps.store, pid, decide)
    made = next(t for t in acct.tokens if t.id == token_id)
    return {"id": token_id, "label": made.label, "created_at": made.created_at, "token": token}


def listing(deps: Dependencies, pid: str, current: str | None) -> dict[str, Any]:
    """The caller's live tokens with their labels and last use (``current``: the one calling)."""
    rows = players.tokens_of(deps.db, uuid.UUID(pid))
    return {"tokens": [{"id": str(r.id), "label": r.label, "created_at": iso(r.created_at),
                        "last_used_at": iso(r.last_used_at) if r.last_used_at else None,
                        "current": str(r.id) == current} for r in rows]}


def revoke(deps: Dependencies, pid: str, token_id: str) -> None:
    """Revoke one of the caller's tokens (the one calling too): it gets 401 from now on."""
    gone: list[str] = []

    def decide(acct: Account) -> list[NewEvent]:
        found = next((t for t in acct.live_tokens() if t.id == token_id), None)
        if found is None:
            raise Problem("not-found", "you have no such token")
        gone.append(found.digest)
        return [NewEvent("TokenRevoked", {"token_id": token_id}, metadata(deps.now(), None, pid))]

    account_stream.update(deps.store, pid, decide)
    for digest in gone:
        forget_token(deps, digest)
