"""The players' read models (projections of their own streams) and the tokens' last use.

* ``players``: name, handle (unique whatever the case), the current or last vacation;
* ``player_tokens``: every bearer token's digest, label and revocation (what
  authentication reads; the token of a registration has the player's own id);
* ``token_usage``: when each token was last used. Not a projection: written by the
  authentication's one call (``fd_use_token``), at most once a minute per token and
  worker, and never rebuilt.

Every write is an effect applied by the append (``sql/013_lifecycle_effects.sql``).
"""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.db import Database

HANDLE_CONSTRAINT = "players_handle"
Effect = dict[str, Any]  # a read-model write applied by the append (sql/007, sql/013)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: uuid.UUID
    name: str
    handle: str | None = None
    vacation_from: datetime | None = None
    vacation_until: datetime | None = None
    bot: bool = False  # a bot's account (registered as one)


@dataclass(frozen=True, slots=True)
class TokenRow:
    id: uuid.UUID
    label: str
    created_at: datetime
    last_used_at: datetime | None


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def player_effect(player_id: uuid.UUID, name: str, token_sha256: str, handle: str | None = None,
                  created_at: datetime | None = None, bot: bool = False) -> Effect:
    """The registration's rows (the player and the token it came with) as an effect of
    :meth:`EventStore.append`: written in its own transaction, so that a crash cannot leave
    a registered player who cannot log in (and a handle already taken refuses the whole
    registration)."""
    return {"op": "player", "row": {"player_id": str(player_id), "name": name, "token_sha256": token_sha256,
                                    "handle": handle, "created_at": _iso(created_at), "bot": bot}}


def handle_effect(player_id: uuid.UUID, handle: str) -> Effect:
    return {"op": "player_handle", "row": {"player_id": str(player_id), "handle": handle}}


def token_effect(token_id: uuid.UUID, player_id: uuid.UUID, token_sha256: str, label: str,
                 created_at: datetime | None) -> Effect:
    return {"op": "token_add", "row": {"token_id": str(token_id), "player_id": str(player_id),
                                       "token_sha256": token_sha256, "label": label, "created_at": _iso(created_at)}}


def revoke_effect(token_id: uuid.UUID, at: datetime) -> Effect:
    return {"op": "token_revoke", "row": {"token_id": str(token_id), "at": _iso(at)}}


def vacation_effect(player_id: uuid.UUID, start: datetime | None, until: datetime | None) -> Effect:
    """The vacation going on (or last taken): from ``start`` to ``until``."""
    return {"op": "player_vacation", "row": {"player_id": str(player_id), "from": _iso(start), "until": _iso(until)}}


def vacation_end_effect(player_id: uuid.UUID, at: datetime) -> Effect:
    """A vacation ended early: it stays recorded as from .. ``at``."""
    return {"op": "player_vacation_end", "row": {"player_id": str(player_id), "at": _iso(at)}}


def signin_code_effect(code_id: uuid.UUID, player_id: uuid.UUID, code_sha256: str, created_at: datetime,
                       expires_at: datetime) -> Effect:
    """A one-time sign-in code (its digest only), findable by whoever types it (sql/014)."""
    return {"op": "signin_code", "row": {"code_id": str(code_id), "player_id": str(player_id),
                                         "code_sha256": code_sha256, "created_at": _iso(created_at),
                                         "expires_at": _iso(expires_at)}}


def signin_code_used_effect(code_id: uuid.UUID, at: datetime) -> Effect:
    return {"op": "signin_code_used", "row": {"code_id": str(code_id), "at": _iso(at)}}


def code_owner(db: Database, code_sha256: str) -> tuple[uuid.UUID, uuid.UUID] | None:
    """(player id, code id) of a sign-in code by its digest, used or not (the player's
    stream decides whether it may still be used)."""
    with db.connection() as conn:
        row = conn.execute("SELECT player_id, code_id FROM signin_codes WHERE code_sha256 = %s",
                           (code_sha256,)).fetchone()
    return None if row is None else (row[0], row[1])


def clear(db: Database) -> None:
    with db.connection() as conn:
        conn.execute("DELETE FROM signin_codes")
        conn.execute("DELETE FROM player_tokens")
        conn.execute("DELETE FROM players")


def stream_ids(db: Database) -> list[uuid.UUID]:
    """Every player's stream (its PlayerRegistered event), for a rebuild."""
    with db.connection() as conn:
        return [r[0] for r in conn.execute("SELECT stream_id FROM streams WHERE kind = 'player' ORDER BY stream_id")]


def use_token(db: Database, token_sha256: str, now: datetime) -> tuple[PlayerRow, uuid.UUID] | None:
    """The player and token id of a live (unrevoked) token, recording that it was used now:
    one call (``fd_use_token``, sql/013)."""
    with db.connection() as conn:
        row = conn.execute("SELECT player_id, name, token_id FROM fd_use_token(%s, %s)", (token_sha256, now)).fetchone()
    return None if row is None else (PlayerRow(row[0], row[1]), row[2])


def token_live(db: Database, token_sha256: str) -> bool:
    """Whether a token is live (not revoked): the read of every authenticated request, one
    probe of ``player_tokens``'s unique index."""
    with db.connection() as conn:
        return conn.execute("SELECT 1 FROM player_tokens WHERE token_sha256 = %s AND revoked_at IS NULL",
                            (token_sha256,)).fetchone() is not None


def require_live_token(db: Database, token_sha256: str) -> None:
    """The same check as :func:`token_live`, sent ahead of this request's next statement in
    its round trip (``Database.guard``, ``fd_require_live_token``, sql/070): a revoked token's
    request raises ``NotLive`` there, and nothing it sent after the check runs."""
    db.guard("SELECT fd_require_live_token(%s)", (token_sha256,))


def by_token_hash(db: Database, token_sha256: str) -> PlayerRow | None:
    """The player of a live token (without recording its use)."""
    with db.connection() as conn:
        row = conn.execute("SELECT p.player_id, p.name FROM player_tokens k JOIN players p USING (player_id)"
                           " WHERE k.token_sha256 = %s AND k.revoked_at IS NULL", (token_sha256,)).fetchone()
    return None if row is None else PlayerRow(row[0], row[1])


_PLAYER = "SELECT player_id, name, handle, vacation_from, vacation_until, bot FROM players"


def by_handle(db: Database, handle: str) -> PlayerRow | None:
    with db.connection() as conn:
        row = conn.execute(_PLAYER + " WHERE lower(handle) = lower(%s)", (handle,)).fetchone()
    return None if row is None else PlayerRow(*row)


def by_id(db: Database, player_id: uuid.UUID) -> PlayerRow | None:
    with db.connection() as conn:
        row = conn.execute(_PLAYER + " WHERE player_id = %s", (player_id,)).fetchone()
    return None if row is None else PlayerRow(*row)


def vacations(db: Database, player_ids: Sequence[uuid.UUID], now: datetime) -> dict[uuid.UUID, tuple[datetime, datetime]]:
    """player -> (from, until) of the vacations going on at ``now``."""
    with db.connection() as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute(
            "SELECT player_id, vacation_from, vacation_until FROM players WHERE player_id = ANY(%s)"
            " AND vacation_from <= %s AND vacation_until > %s", (list(player_ids), now, now))}


def tokens_of(db: Database, player_id: uuid.UUID) -> list[TokenRow]:
    """A player's live tokens, the oldest first, with their last use."""
    with db.connection() as conn:
        return [TokenRow(*r) for r in conn.execute(
            "SELECT k.token_id, k.label, k.created_at, u.last_used_at FROM player_tokens k"
            " LEFT JOIN token_usage u ON u.token_id = k.token_id"
            " WHERE k.player_id = %s AND k.revoked_at IS NULL"
            " ORDER BY k.created_at, k.token_id <> k.player_id, k.token_id", (player_id,))]


def all_rows(db: Database) -> list[tuple[uuid.UUID, str, str]]:
    with db.connection() as conn:
        return [(r[0], r[1], r[2]) for r in
                conn.execute("SELECT player_id, name, token_sha256 FROM players ORDER BY player_id")]


def account_rows(db: Database) -> list[tuple[Any, ...]]:
    """Every row of the players' projections (a rebuild must give them back as they were)."""
    with db.connection() as conn:
        players = [tuple(r) for r in conn.execute(
            "SELECT player_id, name, token_sha256, handle, vacation_from, vacation_until, created_at, bot FROM players"
            " ORDER BY player_id")]
        tokens = [tuple(r) for r in conn.execute(
            "SELECT token_id, player_id, token_sha256, label, created_at, revoked_at FROM player_tokens"
            " ORDER BY token_id")]
        codes = [tuple(r) for r in conn.execute(
            "SELECT code_id, player_id, code_sha256, created_at, expires_at, used_at FROM signin_codes"
            " ORDER BY code_id")]
    return players + tokens + codes
