"""Service configuration from the environment, with sensible defaults."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Config:
    """What the app needs; ``database_url`` is resolved before the app is built."""

    database_url: str = ""
    # the service's login; empty: derived from database_url (events/roles.py)
    app_database_url: str = ""
    # how long a request waits for a database connection before answering 503 (while the
    # database is known to be away, a shorter wait: events.db.Database.connection)
    database_timeout_seconds: float = 1.5
    max_body_bytes: int = 64 * 1024
    pool_size: int = 10
    auto_migrate: bool = True
    long_poll_max: int = 30
    # waiters wake on a NOTIFY hint for their game (and all after a listener reconnect);
    # this timer re-check only covers a hint lost in between, so it can be rare: 60 s keeps
    # 10,000 idle waiters at ~170 queries/s instead of ~670 at 15 s (bench stream)
    recheck_seconds: float = 60.0
    stream_max_seconds: int = 300  # an SSE stream ends then; the client reconnects with Last-Event-ID
    stream_heartbeat_seconds: float = 15.0  # an SSE comment line when nothing else was sent
    # docs/rules/README.md: how long a turn (and the initial peek) and a final window may wait in a
    # game whose creator names no time control; and the bounds of one they name
    turn_timeout_seconds: float = 72 * 3600.0
    final_window_timeout_seconds: float = 24 * 3600.0
    turn_seconds_min: float = 3600.0
    turn_seconds_max: float = 30 * 86400.0
    vacation_days: int = 30  # a player's yearly allowance
    timeouts_before_vote: int = 3  # turns a seat times out in a row before the others may vote
    # how often this process looks for passed deadlines; 0: never (`facedown serve` uses 30)
    deadline_sweep_seconds: float = 0.0
    # requests per second per caller (bearer token, else address) and per worker; 0: no limit
    # (`facedown serve` uses 50, burst 100)
    rate_limit_per_second: float = 0.0
    rate_limit_burst: float = 100.0
    # a request body must arrive within this time (service/http/body_deadline.py, under gunicorn)
    body_timeout_seconds: float = 10.0
    # a waiting long-poll or stream looks this often whether its client is still there
    client_probe_seconds: float = 2.0
    # run the webhook delivery worker in this process (one process delivers at a time)
    webhook_worker: bool = False
    webhooks_allow_private: bool = False
    # a deadline_soon notification when this share of a wait is left (0: never)
    deadline_soon_fraction: float = 0.2
    # reaching players whose page is closed (docs/reaching-players.md): where the web client is
    # (links in e-mails and pushes); where e-mail goes out (empty: nothing is e-mailed) and from
    # whom; whether push endpoints at private addresses are allowed (tests only); whether this
    # process runs the e-mail and push senders (one process sends at a time)
    public_url: str = "http://127.0.0.1:8080"
    smtp_url: str = ""
    mail_from: str = ""
    push_allow_private: bool = False
    reach_worker: bool = False
    # the VAPID "sub" claim (RFC 8292): how a push service may reach the operator
    vapid_contact: str = "mailto:operator@facedown.invalid"
    # transparency (docs/fairness.md): the name of the server's log key, kept with the key at
    # the first start (empty: the public URL's host and "/log"); the witnesses whose
    # cosignatures the server keeps, as verifier keys (type 0x04), separated by spaces or commas
    log_name: str = ""
    witness_keys: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_env(**overrides: Any) -> Config:
        values: dict[str, Any] = {
            "database_url": os.environ.get("DATABASE_URL", ""),
            "app_database_url": os.environ.get("FACEDOWN_APP_DATABASE_URL", ""),
            "pool_size": int(os.environ.get("FACEDOWN_POOL_SIZE", "10")),
            "recheck_seconds": float(os.environ.get("FACEDOWN_RECHECK_SECONDS", "60")),
            "long_poll_max": int(os.environ.get("FACEDOWN_LONG_POLL_MAX_SECONDS", "30")),
            "stream_max_seconds": int(os.environ.get("FACEDOWN_STREAM_MAX_SECONDS", "300")),
            "turn_timeout_seconds": float(os.environ.get("FACEDOWN_TURN_TIMEOUT_SECONDS", str(72 * 3600))),
            "final_window_timeout_seconds": float(os.environ.get("FACEDOWN_FINAL_WINDOW_TIMEOUT_SECONDS",
                                                                 str(24 * 3600))),
            "turn_seconds_min": float(os.environ.get("FACEDOWN_TURN_SECONDS_MIN", str(3600))),
            "turn_seconds_max": float(os.environ.get("FACEDOWN_TURN_SECONDS_MAX", str(30 * 86400))),
            "vacation_days": int(os.environ.get("FACEDOWN_VACATION_DAYS", "30")),
            "timeouts_before_vote": int(os.environ.get("FACEDOWN_TIMEOUTS_BEFORE_VOTE", "3")),
            "deadline_sweep_seconds": float(os.environ.get("FACEDOWN_DEADLINE_SWEEP_SECONDS", "0")),
            "rate_limit_per_second": float(os.environ.get("FACEDOWN_RATE_LIMIT_PER_SECOND", "0")),
            "rate_limit_burst": float(os.environ.get("FACEDOWN_RATE_LIMIT_BURST", "100")),
            "body_timeout_seconds": float(os.environ.get("FACEDOWN_BODY_TIMEOUT_SECONDS", "10")),
            "client_probe_seconds": float(os.environ.get("FACEDOWN_CLIENT_PROBE_SECONDS", "2")),
            "webhooks_allow_private": os.environ.get("FACEDOWN_WEBHOOKS_ALLOW_PRIVATE", "") == "1",
            "deadline_soon_fraction": float(os.environ.get("FACEDOWN_DEADLINE_SOON_FRACTION", "0.2")),
            "public_url": os.environ.get("FACEDOWN_PUBLIC_URL", "").strip().rstrip("/") or Config.public_url,
            "smtp_url": os.environ.get("FACEDOWN_SMTP_URL", "").strip(),
            "mail_from": os.environ.get("FACEDOWN_MAIL_FROM", "").strip(),
            "push_allow_private": os.environ.get("FACEDOWN_PUSH_ALLOW_PRIVATE", "") == "1",
            "vapid_contact": os.environ.get("FACEDOWN_VAPID_CONTACT", "").strip() or Config.vapid_contact,
            "log_name": os.environ.get("FACEDOWN_LOG_NAME", "").strip(),
            "witness_keys": tuple(os.environ.get("FACEDOWN_WITNESS_KEYS", "").replace(",", " ").split()),
        }
        values.update(overrides)
        return Config(**values)
