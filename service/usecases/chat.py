"""Game chat (docs/chat.md): seated players post, whoever may watch the game reads, anyone
who reads reports, an operator hides. Every change is an event of the game's chat stream
(``service.model.chat``), its read-model rows and notifications written by the same append."""
from __future__ import annotations

import uuid
from typing import Any

from events import chat as rows
from events import players
from events.errors import ConcurrencyError, IdempotencyConflict
from events.notifications import Item, effect
from events.store import EventStore, NewEvent
from service.adapters.repository import Idempotency
from service.model import chat
from service.model.game import iso, metadata
from service.model.notifications import wake_key
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies
from service.usecases.visibility import visible

MAX_TRIES = 5
PAGE = 100


def _append(store: EventStore, gid: uuid.UUID, make: Any, idem: Idempotency | None = None) -> tuple[int, bool]:
    """``make(version)`` → (event, effects) appended at the chat's head, retried when another
    append got there first; returns (the event's version, whether ``idem`` had appended it
    already: then nothing was appended now)."""
    sid = chat.stream_of(gid)
    for _ in range(MAX_TRIES):
        head = store.head(sid)
        version = 0 if head is None else head[0]
        event, effects = make(version + 1)
        try:
            # the hint is the service's, after the commit (the CLI's own appends notify)
            done = store.append(sid, version, [event], kind=chat.KIND, notify=False, effects=effects,
                                command_id=idem.key if idem else None,
                                request_hash=idem.request_hash if idem else None)
        except ConcurrencyError:
            continue
        except IdempotencyConflict:
            raise Problem("idempotency-key-reused", "this Idempotency-Key was used with another request") from None
        return (done.first_version, True) if done.duplicate else (version + 1, False)
    raise Problem("conflict", "the chat is busy; try again")


def post(deps: Dependencies, gid: uuid.UUID, player: str, text: Any, key: str | None = None,
         path: str = "") -> dict[str, Any]:
    """A seated player's message (403 for anyone else), trimmed, 1-500 characters, no
    control characters; the other seated players hear of it (but those who muted the sender).
    A retry with the same ``Idempotency-Key`` (``key``) answers the first message again."""
    game = deps.games.load(gid).game
    seat = game.seat_of(player)
    if seat is None:
        raise Problem("forbidden", "only the players seated in the game may chat in it")
    words = chat.clean(text, "text", chat.MAX_TEXT)
    sender = players.by_id(deps.db, uuid.UUID(player))
    others = [(i, s.player_id) for i, s in enumerate(game.seats) if s is not None and s.player_id != player]
    muting = rows.muted_by(deps.db, player, [p for _, p in others])
    told = [(i, p) for i, p in others if p not in muting]
    at = deps.now()

    def make(n: int) -> tuple[NewEvent, list[dict[str, Any]]]:
        event = NewEvent(chat.POSTED, chat.posted(gid, seat, player, words), metadata(at, seat, player))
        writes = [rows.message_effect(n, gid, seat, player, words, at)]
        if told:
            data = chat.notice_data(sender.handle if sender else None, words)
            writes.append(effect([Item(p, "chat", str(gid), None, (i,), data) for i, p in told]))
        return event, writes

    idem = Idempotency.of_request(player, key, "POST", path, words)
    n, again = _append(deps.store, gid, make, idem)
    if again:
        first = rows.messages(deps.db, chat.stream_of(gid), n - 1, 1, None)
        if first and first[0].n == n:
            return message_out(first[0])
    deps.live.hint(chat.stream_of(gid), n)
    for _, p in told:
        deps.live.hint(wake_key(p), 0)
    name = sender.name if sender else None
    handle = sender.handle if sender else None
    return {"n": n, "seat": seat, "player": {"id": player, "name": name, "handle": handle}, "text": words, "at": at}


def may_read(deps: Dependencies, gid: uuid.UUID, player: str | None) -> None:
    """Who may read a game's chat: whoever may watch the game (its seated players; anyone, a
    public one; an unlisted one, its invited players and whoever shows its code: the request
    layer already answers 404 to the rest). 404 if there is no game."""
    deps.games.ruleset_of(gid)


def message_out(m: rows.MessageRow) -> dict[str, Any]:
    return {"n": m.n, "seat": m.seat, "player": {"id": str(m.player_id), "name": m.name, "handle": m.handle},
            "text": m.text, "at": iso(m.at)}


def read(deps: Dependencies, gid: uuid.UUID, player: str | None, after: int,
         limit: int = PAGE) -> list[dict[str, Any]]:
    """Messages numbered above ``after``, oldest first: none hidden, none by a player the
    reader muted."""
    may_read(deps, gid, player)
    return [message_out(m) for m in rows.messages(deps.db, chat.stream_of(gid), after, limit, player)]


def stream_news(deps: Dependencies, gid: uuid.UUID, player: str | None, after: int,
                limit: int) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    """For a game's event stream: (``chat`` with a message, or ``chat_hidden`` with ``{n}``
    for a message an operator hid after the stream may have shown it), in order, and the
    position to read on from."""
    may_read(deps, gid, player)
    out: list[tuple[str, dict[str, Any]]] = []
    for position, message, n in rows.news(deps.db, chat.stream_of(gid), after, limit, player):
        out.append(("chat", message_out(message)) if message else ("chat_hidden", {"n": n}))
        after = position
    return out, after


def report(deps: Dependencies, gid: uuid.UUID, player: str, n: int, reason: Any) -> dict[str, Any]:
    """A report of message ``n`` by a reader of the chat, for the operator (``facedown
    moderation reports``)."""
    may_read(deps, gid, player)
    if not visible(deps, gid, player):  # a stranger to an unlisted game, as for its reads
        raise Problem("not-found", f"no game {gid}")
    why = chat.clean(reason, "reason", chat.MAX_REASON)
    if not rows.message_exists(deps.db, chat.stream_of(gid), n):
        raise Problem("not-found", f"no message {n} in the chat of game {gid}")
    at = deps.now()

    def make(version: int) -> tuple[NewEvent, list[dict[str, Any]]]:
        event = NewEvent(chat.REPORTED, {"n": n, "reporter": player, "reason": why}, metadata(at, None, player))
        return event, [rows.report_effect(version, n, gid, player, why, at)]

    _append(deps.store, gid, make)
    return {"game_id": str(gid), "n": n, "reason": why, "at": at}


def hide(store: EventStore, gid: uuid.UUID, n: int, reason: str, at: str) -> bool:
    """Hide message ``n`` for everyone, by an event (the log stays whole): an operator's act.
    False if there is no such message; hiding a hidden one again changes nothing."""
    sid = chat.stream_of(gid)
    log = store.read(sid)
    if not any(e.type == chat.POSTED and e.version == n for e in log):
        return False
    if any(e.type == chat.HIDDEN and e.data.get("n") == n for e in log):
        return True
    for _ in range(MAX_TRIES):
        head = store.head(sid)
        assert head is not None
        event = NewEvent(chat.HIDDEN, {"n": n, "reason": reason}, metadata(at, None, None))
        try:
            store.append(sid, head[0], [event], kind=chat.KIND, effects=[rows.hidden_effect(n, at, head[0] + 1)])
        except ConcurrencyError:
            continue
        return True
    raise Problem("conflict", "the chat is busy; try again")
