"""Idempotency-Key on creating and joining games: a client whose connection dropped can
retry without making a second game or being told it is "already seated"."""
from __future__ import annotations

from tests.service.helpers import Live


def test_a_retried_creation_returns_the_first_game(live: Live) -> None:
    ann = live.player("ann")
    body = {"ruleset": "corte", "seats": 3}
    first = ann.post("/v1/games", body, headers={"Idempotency-Key": "create-1"})
    again = ann.post("/v1/games", body, headers={"Idempotency-Key": "create-1"})
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert again.json()["your_seat"] == 0 and again.json()["secret_commitment"] == first.json()["secret_commitment"]
    mine = [g["id"] for g in ann.get("/v1/me/games").json()["games"]]
    assert mine.count(first.json()["id"]) == 1 and len(mine) == 1
    other = ann.post("/v1/games", body, headers={"Idempotency-Key": "create-2"})
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]


def test_the_same_key_with_another_body_is_refused(live: Live) -> None:
    bob = live.player("bob")
    assert bob.post("/v1/games", {"ruleset": "corte", "seats": 3}, headers={"Idempotency-Key": "k"}).status_code == 201
    r = bob.post("/v1/games", {"ruleset": "corte", "seats": 4}, headers={"Idempotency-Key": "k"})
    assert r.status_code == 422 and r.json()["type"].endswith("/idempotency-key-reused")


def test_keys_belong_to_their_player(live: Live) -> None:
    a, b = live.player("a"), live.player("b")
    body = {"ruleset": "pedro", "seats": 2}
    ga = a.post("/v1/games", body, headers={"Idempotency-Key": "same"}).json()["id"]
    gb = b.post("/v1/games", body, headers={"Idempotency-Key": "same"}).json()["id"]
    assert ga != gb


def test_a_retried_join_returns_the_seat_it_took(live: Live) -> None:
    host, guest = live.player("host"), live.player("guest")
    gid = host.post("/v1/games", {"ruleset": "corte", "seats": 3}).json()["id"]
    first = guest.post(f"/v1/games/{gid}/join", {}, headers={"Idempotency-Key": "join-1"})
    again = guest.post(f"/v1/games/{gid}/join", {}, headers={"Idempotency-Key": "join-1"})
    assert first.status_code == again.status_code == 200
    assert first.json()["seat"] == again.json()["seat"] == 1
    assert again.json()["game"]["version"] == first.json()["game"]["version"]  # nothing appended
    plain = guest.post(f"/v1/games/{gid}/join", {})
    assert plain.status_code == 409 and plain.json()["type"].endswith("/already-seated")
    other = guest.post(f"/v1/games/{gid}/join", {"entropy": "00" * 16}, headers={"Idempotency-Key": "join-1"})
    assert other.status_code == 422 and other.json()["type"].endswith("/idempotency-key-reused")
