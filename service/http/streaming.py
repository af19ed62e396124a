"""Long-polls and Server-Sent Events over any ordered feed (a game's events, a player's
notifications): catch up, then wait for a wake-up hint, with heartbeats, a bounded life,
release of clients that went away, and patience while the database is away."""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, request

from events.errors import StoreError
from service.http.waiting import ClientProbe, wait
from service.adapters.wakeups import Live
from service.model.problems import Problem

log = logging.getLogger(__name__)
SSE_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Vary": "Authorization"}


@dataclass(frozen=True, slots=True)
class Page:
    """One read of a feed: the SSE messages (or items) after a position, and the next position."""

    messages: list[str]
    after: int
    more: bool  # the read stopped at its limit: read again at once


def settings() -> Any:
    return current_app.extensions["facedown"].config


_turns_lock = threading.Lock()


def _reads_in_turn(pool_size: int) -> threading.BoundedSemaphore:
    """Waiters' reads take turns, at most half the pool at once: thousands of waiters that
    start (or wake) together queue here, not for a connection, so commands and every other
    request still get one within the pool's short timeout (a waiter is in no hurry). One
    queue per app, as its pool is: an app never waits behind another's readers."""
    extensions = current_app.extensions
    with _turns_lock:
        turn = extensions.get("facedown_read_turns")
        if turn is None:
            turn = extensions["facedown_read_turns"] = threading.BoundedSemaphore(max(1, pool_size // 2))
        return turn  # type: ignore[no-any-return]


def _in_turn(read: Callable[..., Any], pool_size: int) -> Callable[..., Any]:
    turn = _reads_in_turn(pool_size)

    def wrapped(*args: Any) -> Any:
        with turn:
            return read(*args)

    return wrapped


def long_poll(live: Live, key: str, wait_seconds: float, read: Callable[[], tuple[Any, bool]]) -> Any:
    """``read()`` → (answer, found); re-read when woken, until something is found or the wait
    ends (then the last answer). A client that went away is released within seconds."""
    config = settings()
    read = _in_turn(read, config.pool_size)
    # the server may cap long-polls below the documented 30 s (Config.long_poll_max)
    seconds = min(wait_seconds, config.long_poll_max)
    if seconds <= 0:
        return read()[0]
    until = time.monotonic() + seconds
    probe = ClientProbe(request.environ)
    # registered before the re-check: a hint cannot slip between the check and the wait
    with live.waiters().watch(key) as watch:
        probe.arm(watch.event.set)
        try:
            while True:
                answer, found = read()
                if found or time.monotonic() >= until or live.closing:
                    return answer
                if wait(watch, probe, until, config.recheck_seconds, config.client_probe_seconds) == "gone":
                    return answer  # nobody will read it; the worker is free again
        finally:
            probe.disarm()


def sse(live: Live, key: str, opening: str, read: Callable[[int], Page], after: int, seconds: float,
        first: Callable[[], str] | None = None, page: tuple[str, uuid.UUID | None] | None = None,
        also: tuple[str, ...] = ()) -> Response:
    """An event stream of what ``read(after)`` returns, for ``seconds`` (then the client
    reconnects with ``Last-Event-ID``). ``first()`` is sent once, before the feed. A hint for
    ``key`` or any of ``also`` (a game's chat beside the game) wakes it. ``page``:
    (player, game or None) whose page holds the stream, recorded as open while it lasts
    (nothing is e-mailed about a game its player has open)."""
    config = settings()
    presence = current_app.extensions.get("facedown_workers", {}).get("presence") if page else None
    probe = ClientProbe(request.environ)
    read = _in_turn(read, config.pool_size)
    if first is not None:
        first = _in_turn(first, config.pool_size)
    body = _stream(live, (key, *also), opening, read, after, seconds, first, probe, config)
    if presence is not None and page is not None:
        body = _present(body, presence, page)
    return Response(body, 200, mimetype="text/event-stream", headers=SSE_HEADERS)


def _present(body: Iterator[str], presence: Any, page: tuple[str, uuid.UUID | None]) -> Iterator[str]:
    """The stream, its page recorded as open from its first message until it ends (however
    it ends: the client gone, the stream's life over, the process stopping)."""
    first = next(body, None)
    if first is None:
        return
    held = presence.opened(*page)
    try:
        yield first
        yield from body
    finally:
        presence.closed(held)
        close = getattr(body, "close", None)
        if close is not None:
            close()


def _stream(live: Live, keys: tuple[str, ...], opening: str, read: Callable[[int], Page], after: int, seconds: float,
            first: Callable[[], str] | None, probe: ClientProbe, config: Any) -> Iterator[str]:
    start = time.monotonic()
    until, beat = start + seconds, start + config.stream_heartbeat_seconds
    try:
        with live.waiters().watch(*keys) as watch:
            probe.arm(watch.event.set)
            # sent at once: the client knows the stream is open (and how soon to reconnect)
            yield f"retry: 1000\n: {opening}\n\n"
            pending_first = first
            while not live.closing:
                try:
                    if pending_first is not None:
                        yield pending_first()
                        pending_first = None
                    page = read(after)
                except StoreError as exc:  # the database is away: say so, and keep waiting
                    log.warning("stream %s: %s; waiting for the database", keys[0], exc)
                    yield ": the database is unavailable; the stream resumes when it is back\n\n"
                    if wait(watch, probe, time.monotonic() + 2.0, 2.0, config.client_probe_seconds) == "gone":
                        return
                    continue
                after = page.after
                if page.messages:
                    yield "".join(page.messages)
                    beat = time.monotonic() + config.stream_heartbeat_seconds
                if page.more:
                    continue
                now = time.monotonic()
                if now >= until:
                    yield ": the stream ends here; reconnect with Last-Event-ID\n\n"
                    return
                if now >= beat:
                    yield ": heartbeat\n\n"
                    beat = now + config.stream_heartbeat_seconds
                if wait(watch, probe, min(until, beat), config.recheck_seconds,
                        config.client_probe_seconds) == "gone":
                    return
    except Exception:  # noqa: BLE001 - the headers are sent: end the stream, the client resumes
        log.exception("event stream %s ended by an error", keys[0])
    finally:
        probe.disarm()


def last_event_id() -> int | None:
    """The position a reconnecting client has seen (``Last-Event-ID``), if it sent one."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 15:
        raise Problem("bad-request", "Last-Event-ID must be a non-negative integer")
    return int(raw)
