"""Where and how a player whose page is closed can be reached (``sql/016_reach_players.sql``):
their e-mail address and its verification, the server's VAPID key pair, their push
subscriptions and their notification settings; and which pages are open now, in any process
(``sql/018_page_presence.sql``). The outboxes are in :mod:`events.reach_outbox`.

None of it is in the log (an address is personal data its owner changes, a subscription a
browser's capability, an event is forever): each table is written by its own function, not
by an append's effect, is never rebuilt, and is not a projection. The service's role reads
them, but not the secrets (the VAPID private key but through :func:`vapid_key`, the push
subscriptions' auth secrets, the verification tokens' digests).
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from events.db import Database
from events.reach_outbox import MailItem

#: the kinds of notification an e-mail or a push may be about (``fd_reach_kinds()``)
REACH_KINDS = ("your_turn", "game_over", "invited", "chat", "tournament_round")


@dataclass(frozen=True, slots=True)
class Email:
    """A player's address: the latest given, and when it was verified (None: not yet)."""

    address: str
    verified_at: datetime | None
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Verification:
    """What using a verification token did: ``status`` is 'verified', else why not ('unknown',
    'used', 'expired', or 'changed': the player has given another address since)."""

    status: str
    player_id: uuid.UUID | None
    address: str | None


@dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's push subscription, as its owner may see it (not its auth secret)."""

    id: uuid.UUID
    endpoint: str
    p256dh: str
    created_at: datetime
    last_success_at: datetime | None = None
    last_failure_at: datetime | None = None
    last_error: str | None = None


@dataclass(frozen=True, slots=True)
class Subscribed:
    """What subscribing did: 'created', 'renewed' (the same endpoint again: its keys replaced)
    or 'too_many' (the player has as many as allowed; then ``subscription`` is None)."""

    status: str
    subscription: Subscription | None


@dataclass(frozen=True, slots=True)
class StoredSettings:
    """What a player chose (only what they set) and the kinds each channel follows under it."""

    settings: dict[str, Any]
    email_kinds: tuple[str, ...]
    push_kinds: tuple[str, ...]
    updated_at: datetime


# --- e-mail addresses ----------------------------------------------------------------------

def email_of(db: Database, player_id: uuid.UUID) -> Email | None:
    with db.connection() as conn:
        row = conn.execute("SELECT email, verified_at, updated_at FROM player_emails WHERE player_id = %s",
                           (player_id,)).fetchone()
    return None if row is None else Email(*row)


def email_owner(db: Database, address: str) -> uuid.UUID | None:
    """The account whose *verified* address this is (whatever its case), else None."""
    with db.connection() as conn:
        row = conn.execute("SELECT player_id FROM player_emails WHERE lower(email) = lower(%s)"
                           " AND verified_at IS NOT NULL", (address,)).fetchone()
    return None if row is None else row[0]


def set_email(db: Database, player_id: uuid.UUID, address: str, token_sha256: str, expires_at: datetime,
              now: datetime, mail: MailItem) -> None:
    """Give the player a new address, not verified yet, with the digest of the token that
    verifies it and the e-mail that carries the token (``mail``, its ``secret`` the token), in
    one transaction. A token of an address given before verifies nothing ('changed')."""
    with db.connection() as conn:
        conn.execute("SELECT fd_set_email(%s, %s, %s, %s, %s, %s)",
                     (player_id, address, token_sha256, expires_at, now, Jsonb(mail.json())))


def change_email(db: Database, player_id: uuid.UUID, address: str, token_sha256: str, expires_at: datetime,
                 now: datetime, mail: MailItem) -> None:
    """As :func:`set_email`, and the verification e-mail of an address given before, if it has
    not gone yet, does not go (``sql/019_email_changes.sql``)."""
    with db.connection() as conn:
        conn.execute("SELECT fd_change_email(%s, %s, %s, %s, %s, %s)",
                     (player_id, address, token_sha256, expires_at, now, Jsonb(mail.json())))


def verify_email(db: Database, token_sha256: str, now: datetime) -> Verification:
    """Use a verification token, once (see :class:`Verification`)."""
    with db.connection() as conn:
        row = conn.execute("SELECT status, player_id, email FROM fd_verify_email(%s, %s)",
                           (token_sha256, now)).fetchone()
    assert row is not None
    return Verification(*row)


def forget_email(db: Database, player_id: uuid.UUID, now: datetime) -> bool:
    """Forget the player's address (``sql/019_email_changes.sql``): it, their verification
    tokens, and the address in their e-mail rows; their pending e-mails are skipped. Whether
    there was one."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_forget_email(%s, %s)", (player_id, now)).fetchone()
    return bool(row and row[0])


# --- the VAPID key pair --------------------------------------------------------------------

def vapid_key(db: Database, public_key: str, private_key: bytes, now: datetime) -> tuple[str, bytes]:
    """The server's key pair: the one kept, or this one if none is yet (the first caller's is
    kept, so processes starting at once agree). (public key, private key) as stored."""
    with db.connection() as conn:
        row = conn.execute("SELECT public_key, private_key FROM fd_vapid_key(%s, %s, %s)",
                           (public_key, private_key, now)).fetchone()
    assert row is not None
    return str(row[0]), bytes(row[1])


def vapid_public(db: Database) -> str | None:
    """The kept public key (base64url), or None before the first start made one."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_vapid_public()").fetchone()
    return None if row is None or row[0] is None else str(row[0])


# --- push subscriptions --------------------------------------------------------------------

_SUB_COLS = "subscription_id, endpoint, p256dh, created_at, last_success_at, last_failure_at, last_error"


def subscribe(db: Database, player_id: uuid.UUID, subscription_id: uuid.UUID, endpoint: str, p256dh: str,
              auth: bytes, now: datetime, limit: int) -> Subscribed:
    """Keep a browser's subscription (the same endpoint again renews its keys and keeps its
    id); at most ``limit`` per player."""
    with db.connection() as conn:
        row = conn.execute("SELECT subscription_id, created_at, status FROM fd_push_subscribe(%s, %s, %s, %s, %s, %s, %s)",
                           (player_id, subscription_id, endpoint, p256dh, auth, now, limit)).fetchone()
    assert row is not None
    if row[2] == "too_many":
        return Subscribed("too_many", None)
    return Subscribed(row[2], Subscription(row[0], endpoint, p256dh, row[1]))


def subscriptions(db: Database, player_id: uuid.UUID) -> list[Subscription]:
    """The player's subscriptions, the oldest first."""
    with db.connection() as conn:
        rows = conn.execute(f"SELECT {_SUB_COLS} FROM push_subscriptions WHERE player_id = %s"
                            " ORDER BY created_at, subscription_id", (player_id,)).fetchall()
    return [Subscription(*r) for r in rows]


def unsubscribe(db: Database, player_id: uuid.UUID, subscription_id: uuid.UUID) -> bool:
    """Remove one of the player's subscriptions (its pushes not yet sent are not sent);
    whether there was one."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_push_unsubscribe(%s, %s)", (player_id, subscription_id)).fetchone()
    return bool(row and row[0])


# --- notification settings -----------------------------------------------------------------

def settings_of(db: Database, player_id: uuid.UUID) -> StoredSettings | None:
    """What the player chose, or None if they never saved any (the defaults apply)."""
    return settings_for(db, [player_id]).get(player_id)


def settings_for(db: Database, player_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, StoredSettings]:
    """The stored settings of these players (those who saved some), in one query."""
    with db.connection() as conn:
        rows = conn.execute("SELECT player_id, settings, email_kinds, push_kinds, updated_at"
                            " FROM notification_settings WHERE player_id = ANY(%s)", (list(player_ids),)).fetchall()
    return {r[0]: StoredSettings(r[1], tuple(r[2]), tuple(r[3]), r[4]) for r in rows}


def put_settings(db: Database, player_id: uuid.UUID, settings: Mapping[str, Any], email_kinds: Sequence[str],
                 push_kinds: Sequence[str], now: datetime) -> None:
    """Save what the player chose, and the kinds of news each channel follows under it (the
    outboxes are written by these: a kind neither follows writes no row)."""
    with db.connection() as conn:
        conn.execute("SELECT fd_put_notification_settings(%s, %s, %s, %s, %s)",
                     (player_id, Jsonb(dict(settings)), list(email_kinds), list(push_kinds), now))


# --- pages open now (sql/018) --------------------------------------------------------------

NO_GAME = uuid.UUID(int=0)  # the player's own stream: a page open on no game in particular


def page_opened(db: Database, holder: str, player_id: uuid.UUID, game_id: uuid.UUID | None, now: datetime) -> None:
    """A stream of this process (``holder``) opened: the player has this game's page (or, with
    None, some page) open."""
    with db.connection() as conn:
        conn.execute("SELECT fd_page_presence(%s, %s, %s, true, %s)", (holder, player_id, game_id or NO_GAME, now))


def page_closed(db: Database, holder: str, player_id: uuid.UUID, game_id: uuid.UUID | None) -> None:
    with db.connection() as conn:
        conn.execute("SELECT fd_page_presence(%s, %s, %s, false, NULL)", (holder, player_id, game_id or NO_GAME))


def pages_alive(db: Database, holder: str, now: datetime, reset: bool = False) -> int:
    """This process is alive: its open pages are seen ``now`` (how many). ``reset``: a process
    starting under a holder name used before drops what that one left."""
    with db.connection() as conn:
        row = conn.execute("SELECT fd_page_presence_alive(%s, %s, %s)", (holder, now, reset)).fetchone()
    return int(row[0]) if row else 0


def open_pages(db: Database, player_ids: Sequence[uuid.UUID], since: datetime) -> dict[uuid.UUID, set[uuid.UUID | None]]:
    """player -> the games whose pages they have open (None: some page, on no game in
    particular), by the rows a live process has touched since ``since``."""
    out: dict[uuid.UUID, set[uuid.UUID | None]] = {}
    with db.connection() as conn:
        for player, game in conn.execute("SELECT DISTINCT player_id, game_id FROM page_presence"
                                         " WHERE player_id = ANY(%s) AND seen_at >= %s", (list(player_ids), since)):
            out.setdefault(player, set()).add(None if game == NO_GAME else game)
    return out
