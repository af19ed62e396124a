"""Game chat, the pure part: a game's chat stream and its events, what a message may hold,
and a message as readers see it (docs/chat.md).

A game's chat is a stream of its own, kind ``chat``, beside the game's log (never in the rules'
events, so replaying and auditing a game never meets a word of it). Its id is derived from the
game's (:func:`stream_of`), so nothing has to be looked up to find it. Events:
``ChatMessagePosted {game_id, seat, player_id, text}``, ``ChatMessageReported {n, reporter,
reason}``, ``ChatMessageHidden {n, reason}``; each with ``{"at": ...}`` in its metadata. A
message's number ``n`` is the version of its ``ChatMessagePosted`` in the chat stream: it grows
with every message, and the numbers of reports and hides are not messages.
"""
from __future__ import annotations

import unicodedata
import uuid
from typing import Any

from service.model.problems import Problem

KIND = "chat"
POSTED, REPORTED, HIDDEN = "ChatMessagePosted", "ChatMessageReported", "ChatMessageHidden"
MAX_TEXT = 500
MAX_REASON = 500
# The bidirectional embeddings, overrides and isolates: format characters, not control
# characters, but they can make a message read as something it is not.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def stream_of(game_id: uuid.UUID) -> uuid.UUID:
    """The chat stream of a game: a name-based UUID in the game's own namespace."""
    return uuid.uuid5(game_id, KIND)


def clean(value: Any, field: str, limit: int) -> str:
    """``value`` trimmed, if it is text of 1 to ``limit`` characters with no control
    character; else a 422 naming ``field``."""
    def refuse(reason: str) -> Problem:
        return Problem("validation", f"{field}: {reason}", errors={field: [reason]})

    if not isinstance(value, str):
        raise refuse("must be a string")
    text = value.strip()
    if not text:
        raise refuse("must not be empty")
    if len(text) > limit:
        raise refuse(f"must be at most {limit} characters (it has {len(text)})")
    for ch in text:
        if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs"):
            raise refuse(f"must not contain control characters (U+{ord(ch):04X})")
    return text


def posted(game_id: uuid.UUID, seat: int, player_id: str, text: str) -> dict[str, Any]:
    return {"game_id": str(game_id), "seat": seat, "player_id": player_id, "text": text}


def notice_data(handle: str | None, text: str) -> dict[str, Any]:
    """A ``chat`` notification's data: the sender's handle and the words, nothing else (the
    notification's row names the game). The server adds nothing that could name a card."""
    return {"handle": handle, "text": text}
