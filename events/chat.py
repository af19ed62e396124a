"""Game chat's read models (sql/050_game_chat.sql): each game's messages, the reports on them,
and each player's mutes. Projections of the chat streams and the players' own streams,
written by their appends' effects; read here."""
from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.db import Database

Effect = dict[str, Any]  # a read-model write applied by the append (sql/050)


@dataclass(frozen=True, slots=True)
class MessageRow:
    n: int
    seat: int
    player_id: uuid.UUID
    name: str | None
    handle: str | None
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class ReportRow:
    game_id: uuid.UUID
    n: int
    reporter: uuid.UUID
    reason: str
    at: datetime
    author: uuid.UUID | None
    text: str | None
    hidden: bool


def message_effect(n: int, game_id: uuid.UUID, seat: int, player_id: str, text: str, at: str) -> Effect:
    return {"op": "chat_message", "row": {"n": n, "game_id": str(game_id), "seat": seat, "player_id": player_id,
                                          "text": text, "at": at}}


def report_effect(version: int, n: int, game_id: uuid.UUID, reporter: str, reason: str, at: str) -> Effect:
    return {"op": "chat_report", "row": {"version": version, "n": n, "game_id": str(game_id), "reporter": reporter,
                                         "reason": reason, "at": at}}


def hidden_effect(n: int, at: str, version: int) -> Effect:
    return {"op": "chat_hidden", "row": {"n": n, "at": at, "version": version}}


def mute_effect(muted: str, at: str) -> Effect:
    return {"op": "mute", "row": {"muted": muted, "at": at}}


def unmute_effect(muted: str) -> Effect:
    return {"op": "unmute", "row": {"muted": muted}}


# a message as readers see it, and the condition that leaves out what a reader must not see
_MESSAGE = ("m.n, m.seat, m.player_id, p.name, p.handle, m.text, m.at FROM chat_messages m"
            " LEFT JOIN players p ON p.player_id = m.player_id"
            " WHERE m.stream_id = %s AND m.n > %s AND m.hidden_at IS NULL AND NOT (m.player_id = ANY(%s))")


def _muted(conn: Any, reader: str | None) -> list[uuid.UUID]:
    # read first, on their own: on Citus the mutes sit in the reader's shard, the messages in
    # the chat's, and two single-shard reads beat one query across them
    return [] if reader is None else [r[0] for r in conn.execute(
        "SELECT muted FROM player_mutes WHERE player_id = %s", (reader,))]


def messages(db: Database, chat: uuid.UUID, after: int, limit: int, reader: str | None) -> list[MessageRow]:
    """The chat's messages numbered above ``after``, in order: none hidden, none by a player
    ``reader`` muted."""
    with db.connection() as conn:
        rows = conn.execute("SELECT " + _MESSAGE + " ORDER BY m.n LIMIT %s",
                            (chat, after, _muted(conn, reader), limit)).fetchall()
    return [MessageRow(*r) for r in rows]


def news(db: Database, chat: uuid.UUID, after: int, limit: int,
         reader: str | None) -> list[tuple[int, MessageRow | None, int]]:
    """What a stream that has read the chat up to position ``after`` has not told yet, in
    order: (position, the message, its n) for each message, (position, None, n) for each hide
    of a message it may have shown. One query, so one snapshot: a message and a hide committed
    between two reads can never be passed over."""
    with db.connection() as conn:
        muted = _muted(conn, reader)
        rows = conn.execute(
            "SELECT * FROM (SELECT m.n AS pos, " + _MESSAGE +
            " UNION ALL SELECT m.hidden_version, m.n, NULL, NULL, NULL, NULL, NULL, NULL FROM chat_messages m"
            " WHERE m.stream_id = %s AND m.hidden_version > %s AND m.n <= %s AND NOT (m.player_id = ANY(%s))"
            ") x ORDER BY pos LIMIT %s", (chat, after, muted, chat, after, after, muted, limit)).fetchall()
    return [(r[0], None if r[2] is None else MessageRow(*r[1:]), r[1]) for r in rows]


def message_exists(db: Database, chat: uuid.UUID, n: int) -> bool:
    with db.connection() as conn:
        return conn.execute("SELECT 1 FROM chat_messages WHERE stream_id = %s AND n = %s",
                            (chat, n)).fetchone() is not None


def muted_by(db: Database, author: str, players: Sequence[str]) -> set[str]:
    """Which of ``players`` muted ``author``."""
    if not players:
        return set()
    with db.connection() as conn:
        rows = conn.execute("SELECT player_id FROM player_mutes WHERE muted = %s AND player_id = ANY(%s)",
                            (author, [uuid.UUID(p) for p in players])).fetchall()
    return {str(r[0]) for r in rows}


def mutes(db: Database, player: str) -> list[tuple[uuid.UUID, str | None, str | None, datetime]]:
    """(id, name, handle, since) of the players ``player`` muted, oldest first."""
    with db.connection() as conn:
        return [(r[0], r[1], r[2], r[3]) for r in conn.execute(
            "SELECT u.muted, p.name, p.handle, u.at FROM player_mutes u LEFT JOIN players p"
            " ON p.player_id = u.muted WHERE u.player_id = %s ORDER BY u.at, u.muted", (player,))]


def reports(db: Database, limit: int = 100) -> list[ReportRow]:
    """The latest reports, newest first, each with the message it is about."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT r.game_id, r.n, r.reporter, r.reason, r.at, m.player_id, m.text, m.hidden_at IS NOT NULL"
            " FROM chat_reports r LEFT JOIN chat_messages m ON m.stream_id = r.stream_id AND m.n = r.n"
            " ORDER BY r.at DESC, r.stream_id, r.version DESC LIMIT %s", (limit,)).fetchall()
    return [ReportRow(*r) for r in rows]
