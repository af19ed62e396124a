"""Rate limits: a caller over its budget gets 429 with Retry-After; others are not affected.

Buckets belong to the authenticated player (however the header is spelled), else to the
client address; costly anonymous reads and unknown tokens have stricter budgets per address."""
from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.http.rate_limits import RateLimiter


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_the_rate() -> None:
    ticks = Ticks()
    limiter = RateLimiter(rate=2, burst=3, clock=ticks)
    assert [limiter.wait("a") for _ in range(3)] == [0, 0, 0]
    assert limiter.peek("a") == 0.5 and limiter.wait("a") == 0.5  # half a second until the next token
    assert limiter.wait("b") == 0  # another caller has its own bucket
    ticks.now += 0.5
    assert limiter.wait("a") == 0
    ticks.now += 100
    assert [limiter.wait("a") for _ in range(4)] == [0, 0, 0, 0.5]  # never more than the burst


@pytest.fixture
def limited(make_app: Any) -> Any:
    """``make(rate, burst)``: an app limited so (clock ``ticks``) and its test client."""
    ticks = Ticks()

    def make(rate: float = 1, burst: float = 3) -> FlaskClient:
        return make_app(rate_limit_per_second=rate, rate_limit_burst=burst, extra={"monotonic": ticks}).test_client()

    make.ticks = ticks  # type: ignore[attr-defined]
    return make


def _token(client: FlaskClient, name: str) -> str:
    r = client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return str(r.get_json()["token"])


def _is_429(r: Any) -> bool:
    return r.status_code == 429 and r.mimetype == "application/problem+json" and int(r.headers["Retry-After"]) >= 1


def test_the_api_answers_429_with_retry_after(limited: Any) -> None:
    client = limited(rate=1, burst=30)
    token, other = _token(client, "busy"), _token(client, "calm")
    auth: dict[str, Any] = {"Authorization": f"Bearer {token}"}
    assert {client.get("/v1/me/games", headers=auth).status_code for _ in range(30)} == {200}
    r = client.get("/v1/me/games", headers=auth)
    assert _is_429(r) and r.headers["Retry-After"] == "1" and r.get_json()["type"].endswith("/rate-limited")
    assert client.get("/healthz").status_code == 200  # probes are never limited
    assert client.get("/v1/me/games", headers={"Authorization": f"Bearer {other}"}).status_code == 200
    limited.ticks.now += 1
    assert client.get("/v1/me/games", headers=auth).status_code == 200


def test_one_player_has_one_bucket_however_the_header_is_spelled(limited: Any) -> None:
    client = limited(rate=1, burst=30)
    token = _token(client, "spelled")
    spellings = [f"Bearer {token}", f"bearer {token}", f"BEARER {token}", f"Bearer {token}   ", f"bearer  {token} "]
    codes = [client.get("/v1/me/games", headers={"Authorization": spellings[i % len(spellings)]}).status_code
             for i in range(31)]
    assert codes == [200] * 30 + [429]


def test_a_bad_or_malformed_token_spends_its_addresss_bucket_not_a_new_one(limited: Any) -> None:
    client = limited(rate=1, burst=30)
    player = {"Authorization": f"Bearer {_token(client, 'neighbour')}"}
    assert client.get("/v1/me/games", headers=player).status_code == 200  # this worker now knows it
    anonymous = [client.get("/v1/rulesets").status_code for _ in range(10)]
    bad = [client.get("/v1/me/games", headers={"Authorization": f"Bearer bad-{i % 3}"}).status_code
           for i in range(10)]
    malformed = [client.get("/v1/me/games", headers={"Authorization": f"Basic x{i}"}).status_code
                 for i in range(9)]
    assert anonymous == [200] * 10 and bad == [401] * 10 and malformed == [401] * 9
    assert _is_429(client.get("/v1/rulesets"))
    assert _is_429(client.get("/v1/me/games", headers={"Authorization": "Bearer yet-another"}))
    # a player at the same address has a bucket of its own
    assert client.get("/v1/me/games", headers=player).status_code == 200


def test_unknown_tokens_are_limited_per_address_before_any_query(limited: Any) -> None:
    client = limited(rate=1, burst=100)  # unknown tokens: a tenth, 10 at once and 0.1 per second
    known = {"Authorization": f"Bearer {_token(client, 'known')}"}
    assert client.get("/v1/me/games", headers=known).status_code == 200  # this worker now knows it
    codes = [client.get("/v1/me/games", headers={"Authorization": f"Bearer guess-{i}"}).status_code
             for i in range(11)]
    assert codes == [401] * 10 + [429]
    client.application.extensions["facedown"].db.close()  # a query from here on would be a 503
    r = client.get("/v1/rulesets", headers={"Authorization": "Bearer guess-11"})
    assert _is_429(r) and r.headers["Retry-After"] == "10"
    assert client.get("/v1/rulesets", headers=known).status_code == 200  # known tokens need no query
    assert client.get("/v1/rulesets").status_code == 200  # and the address may still call anonymously
    # once the budget refills, an unknown token is looked up again (a query: 503, the pool is closed)
    limited.ticks.now += 10
    assert client.get("/v1/rulesets", headers={"Authorization": "Bearer guess-12"}).status_code == 503


def test_a_token_found_unknown_is_refused_again_without_a_query(make_app: Any) -> None:
    app = make_app()  # no rate limits at all
    client = app.test_client()
    assert client.get("/v1/me/games", headers={"Authorization": "Bearer mistyped"}).status_code == 401
    app.extensions["facedown"].db.close()
    again = client.get("/v1/me/games", headers={"Authorization": "Bearer mistyped"})
    assert again.status_code == 401 and again.get_json()["type"].endswith("/unauthorized")
    # another unknown token does need the database (which is closed): the cache answered above
    assert client.get("/v1/me/games", headers={"Authorization": "Bearer other"}).status_code == 503


def test_costly_anonymous_reads_have_a_stricter_budget_per_address(limited: Any) -> None:
    client = limited(rate=1, burst=30)  # costly: 3 at once, 0.1 per second
    auth = {"Authorization": f"Bearer {_token(client, 'reader')}"}
    assert [client.get("/v1/games").status_code for _ in range(2)] == [200, 200]
    assert _is_429(client.get("/v1/games"))
    assert client.get("/v1/rulesets").status_code == 200  # cheap reads are not affected
    assert client.get("/v1/games", headers=auth).status_code == 200  # nor are players
    other = {"REMOTE_ADDR": "192.0.2.7"}
    assert client.get("/v1/games", environ_base=other).status_code == 200  # nor another address
    limited.ticks.now += 10
    assert client.get("/v1/games").status_code == 200


def test_registration_spends_the_costly_budget_of_the_address_with_or_without_a_token(limited: Any) -> None:
    client = limited(rate=1, burst=30)
    first = _token(client, "first")
    auth = {"Authorization": f"Bearer {first}"}
    codes = [client.post("/v1/players", json={"name": f"n{i}"}, headers=auth).status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_an_ipv6_host_is_limited_by_its_64_and_a_mapped_ipv4_one_by_its_address(limited: Any) -> None:
    client = limited(rate=1, burst=30)  # costly: 3 at once
    same_64 = ["2001:db8:1:2::1", "2001:db8:1:2::ff", "2001:db8:1:2:abcd::9"]
    assert [client.get("/v1/games", environ_base={"REMOTE_ADDR": a}).status_code for a in same_64] == [200] * 3
    assert _is_429(client.get("/v1/games", environ_base={"REMOTE_ADDR": "2001:db8:1:2::2"}))
    assert client.get("/v1/games", environ_base={"REMOTE_ADDR": "2001:db8:1:3::1"}).status_code == 200
    # IPv4 clients of a dual-stack socket are told apart by their IPv4 address, not one /64
    mapped = [client.get("/v1/games", environ_base={"REMOTE_ADDR": f"::ffff:192.0.2.{i}"}).status_code
              for i in range(1, 6)]
    assert mapped == [200] * 5
    assert client.get("/v1/games", environ_base={"REMOTE_ADDR": "192.0.2.1"}).status_code == 200
    assert client.get("/v1/games", environ_base={"REMOTE_ADDR": "192.0.2.1"}).status_code == 200
    assert _is_429(client.get("/v1/games", environ_base={"REMOTE_ADDR": "::ffff:192.0.2.1"}))
