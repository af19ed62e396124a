"""Which pages of the web client are open now, for the e-mail sender in whichever process it
runs (``sql/018_page_presence.sql``, ``events.reach``): this process records each event
stream a signed-in player opens (a game's page, or their account's stream for a page on no
game in particular) and closes, under a holder name of its own, and a ticker touches its
rows every few seconds. Rows not touched for a while (``reach_facts.PRESENCE_FRESH``)
belong to a process that died, and count for nothing.

Recording presence must never break a stream: while the database is away it is skipped,
and the next tick after a stream opened writes it again.
"""
from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import uuid
from collections import Counter

from events import reach
from events.errors import StoreError
from service.usecases.dependencies import Dependencies

log = logging.getLogger("facedown.presence")
Page = tuple[uuid.UUID, uuid.UUID | None]  # (player, game or None: a page on no game)


class Presence:
    """This process's open pages; ``every``: seconds between touches (well under the freshness)."""

    def __init__(self, deps: Dependencies, every: float = 5.0) -> None:
        self.deps, self.every = deps, every
        self.holder = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._open: Counter[Page] = Counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def opened(self, player: str | uuid.UUID, game: uuid.UUID | None) -> Page:
        """A stream opened; returns what to give :meth:`closed` when it ends."""
        page = (uuid.UUID(str(player)), game)
        with self._lock:
            self._open[page] += 1
            first = self._open[page] == 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="facedown-presence", daemon=True)
                self._thread.start()
        if first:
            self._write(lambda: reach.page_opened(self.deps.db, self.holder, page[0], page[1], self.deps.clock()))
        return page

    def closed(self, page: Page) -> None:
        with self._lock:
            self._open[page] -= 1
            last = self._open[page] <= 0
            if last:
                del self._open[page]
        if last:
            self._write(lambda: reach.page_closed(self.deps.db, self.holder, page[0], page[1]))

    def tick(self) -> int:
        """Touch every open page of this process (and write again any a lost write missed)."""
        with self._lock:
            pages = list(self._open)
        now = self.deps.clock()
        touched = reach.pages_alive(self.deps.db, self.holder, now)
        if touched < len(pages):  # a write was lost while the database was away
            for player, game in pages:
                reach.page_opened(self.deps.db, self.holder, player, game, now)
        return len(pages)

    def _write(self, write: object) -> None:
        try:
            write()  # type: ignore[operator]
        except StoreError as exc:
            log.warning("page presence not recorded: %s", exc)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.tick()
            except StoreError as exc:
                log.warning("page presence not touched: %s", exc)
            except Exception:  # noqa: BLE001 - the ticker must outlive any one failure
                log.exception("page presence ticker failed")

    def close(self) -> None:
        """This process stops: its pages are closed at once rather than when they go stale."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            reach.pages_alive(self.deps.db, self.holder, self.deps.clock(), reset=True)
        except StoreError:
            pass  # they go stale on their own
