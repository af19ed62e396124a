"""What the use cases share, one per app: the store, the database, the clock, the wake-up
hints and the game repository. Nothing here knows about HTTP."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from events.db import Database
from events.store import EventStore
from service.model.game import Timeouts
from service.adapters.wakeups import Live
from service.model.caches import Lru
from service.model.views import iso
from service.adapters.repository import GameRepository


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Api:
    """What the use cases share (one per app)."""

    store: EventStore
    db: Database
    live: Live
    clock: Callable[[], datetime] = utc_now
    timeouts: Timeouts = field(default_factory=Timeouts)
    _tokens: Lru = field(default_factory=lambda: Lru(100_000))  # token hash -> player
    # the migrating (owner's) URL, for administration only: rebuilding read models from the
    # log. The service itself may not write a table (sql/008).
    admin_url: str = ""
    deadline_soon_fraction: float = 0.2  # a deadline_soon when this share of a wait is left
    games: GameRepository = field(init=False)
    _admin: Database | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.games = GameRepository(self.store, self.db, self.live, Lru, self.timeouts)

    def now(self) -> str:
        return iso(self.clock())

    def admin(self) -> Database:
        """A connection pool as the owner, opened on first use (administration only)."""
        if self._admin is None:
            self._admin = Database(self.admin_url or self.db.url, max_size=2, service_role=False)
        return self._admin

    def close(self) -> None:
        if self._admin is not None:
            self._admin.close()
