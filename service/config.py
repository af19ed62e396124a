"""Service configuration from the environment, with sensible defaults."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Config:
    """What the app needs; ``database_url`` is resolved before the app is built."""

    database_url: str = ""
    max_body_bytes: int = 64 * 1024
    pool_size: int = 10
    auto_migrate: bool = True
    long_poll_max: int = 30
    # waiters wake on a NOTIFY hint for their game (and all after a listener reconnect);
    # this timer re-check only covers lost hints, so it can be rare
    # a waiter re-checks the database this often even without a hint (hints can be lost);
    # 15 s keeps 1,000 idle waiters at ~70 queries/s instead of 200 (bench stream)
    recheck_seconds: float = 15.0
    stream_max_seconds: int = 300  # an SSE stream ends then; the client reconnects with Last-Event-ID
    stream_heartbeat_seconds: float = 15.0  # an SSE comment line when nothing else was sent
    # RULES §7.6: how long a turn (and the initial peek) and a final window may wait
    turn_timeout_seconds: float = 72 * 3600.0
    final_window_timeout_seconds: float = 24 * 3600.0
    # how often this process looks for passed deadlines; 0: never (`facedown serve` uses 30)
    deadline_sweep_seconds: float = 0.0
    # requests per second per caller (bearer token, else address) and per worker; 0: no limit
    # (`facedown serve` uses 50, burst 100)
    rate_limit_per_second: float = 0.0
    rate_limit_burst: float = 100.0
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_env(**overrides: Any) -> Config:
        values: dict[str, Any] = {
            "database_url": os.environ.get("DATABASE_URL", ""),
            "pool_size": int(os.environ.get("FACEDOWN_POOL_SIZE", "10")),
            "recheck_seconds": float(os.environ.get("FACEDOWN_RECHECK_SECONDS", "15")),
            "stream_max_seconds": int(os.environ.get("FACEDOWN_STREAM_MAX_SECONDS", "300")),
            "turn_timeout_seconds": float(os.environ.get("FACEDOWN_TURN_TIMEOUT_SECONDS", str(72 * 3600))),
            "final_window_timeout_seconds": float(os.environ.get("FACEDOWN_FINAL_WINDOW_TIMEOUT_SECONDS",
                                                                 str(24 * 3600))),
            "deadline_sweep_seconds": float(os.environ.get("FACEDOWN_DEADLINE_SWEEP_SECONDS", "0")),
            "rate_limit_per_second": float(os.environ.get("FACEDOWN_RATE_LIMIT_PER_SECOND", "0")),
            "rate_limit_burst": float(os.environ.get("FACEDOWN_RATE_LIMIT_BURST", "100")),
        }
        values.update(overrides)
        return Config(**values)
