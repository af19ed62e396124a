"""What the use cases are given, built once per app by ``service.http.app.create_app``: the
settings, the pool and the store, the clock, the wake-ups, the game repository and the
worker's caches. Nothing here knows about HTTP."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from events.db import Database
from events.store import EventStore
from service.adapters.repository import GameRepository
from service.adapters.transparency import Transparency, default_name
from service.adapters.wakeups import Live
from service.config import Config
from service.model.caches import AuditCache, Lru
from service.model.game import Timeouts, iso


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Dependencies:
    """The use cases' container (one per app)."""

    config: Config
    store: EventStore
    db: Database
    live: Live
    clock: Callable[[], datetime] = utc_now
    timeouts: Timeouts = field(default_factory=Timeouts)
    tokens: Lru = field(default_factory=lambda: Lru(100_000))  # token hash -> player, as this worker knows it
    audits: AuditCache = field(default_factory=AuditCache)  # the audits this worker built
    # values a use case makes once per app and keeps (the server's VAPID key pair)
    memo: dict[str, object] = field(default_factory=dict)
    games: GameRepository = field(init=False)
    _admin: Database | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        name = self.config.log_name or default_name(self.config.public_url)
        self.games = GameRepository(self.store, self.db, self.live, self.timeouts,
                                    Transparency(self.db, name, lambda: self.clock()))

    @property
    def deadline_soon_fraction(self) -> float:
        """A deadline_soon when this share of a wait is left (0: never)."""
        return self.config.deadline_soon_fraction

    def now(self) -> str:
        return iso(self.clock())

    def admin(self) -> Database:
        """A connection pool as the owner (the migrating URL), opened on first use: for
        administration only, rebuilding read models from the log. The service itself may not
        write a table (sql/008)."""
        if self._admin is None:
            self._admin = Database(self.config.database_url or self.db.url, max_size=2, service_role=False)
        return self._admin

    def close(self) -> None:
        """Stop what the dependencies hold open: the wake-ups' connections and the pools."""
        self.live.close()
        if self._admin is not None:
            self._admin.close()
        self.db.close()
