"""Rate limits: a caller over its budget gets 429 with Retry-After; others are not affected."""
from __future__ import annotations

from typing import Any

from service.app import create_app
from service.ratelimit import RateLimiter


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_the_rate() -> None:
    ticks = Ticks()
    limiter = RateLimiter(rate=2, burst=3, clock=ticks)
    assert [limiter.wait("a") for _ in range(3)] == [0, 0, 0]
    assert limiter.wait("a") == 0.5  # half a second until the next token
    assert limiter.wait("b") == 0  # another caller has its own bucket
    ticks.now += 0.5
    assert limiter.wait("a") == 0
    ticks.now += 100
    assert [limiter.wait("a") for _ in range(4)] == [0, 0, 0, 0.5]  # never more than the burst


def test_the_api_answers_429_with_retry_after(database_url: str) -> None:
    ticks = Ticks()
    app = create_app({"database_url": database_url, "rate_limit_per_second": 1, "rate_limit_burst": 3,
                      "extra": {"monotonic": ticks}})
    try:
        client = app.test_client()
        token = client.post("/v1/players", json={"name": "busy"}).get_json()["token"]
        auth: dict[str, Any] = {"Authorization": f"Bearer {token}"}
        assert [client.get("/v1/me/games", headers=auth).status_code for _ in range(3)] == [200, 200, 200]
        r = client.get("/v1/me/games", headers=auth)
        assert r.status_code == 429 and r.headers["Retry-After"] == "1"
        assert r.mimetype == "application/problem+json" and r.get_json()["type"].endswith("/rate-limited")
        assert client.get("/healthz").status_code == 200  # probes are never limited
        other = client.post("/v1/players", json={"name": "calm"}).get_json()["token"]
        assert client.get("/v1/me/games", headers={"Authorization": f"Bearer {other}"}).status_code == 200
        ticks.now += 1
        assert client.get("/v1/me/games", headers=auth).status_code == 200
    finally:
        app.extensions["facedown_api"].live.close()
        app.extensions["facedown"].db.close()
