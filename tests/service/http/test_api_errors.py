"""Errors, concurrency, idempotency and long-poll over real HTTP."""
from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
import requests

from tests.service.conftest import RULESETS
from tests.service.helpers import Live, Player, acting, start_game

PROBLEM = "application/problem+json"


def _problem(r: requests.Response, status: int, slug: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"].startswith(PROBLEM)
    body = r.json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    if slug:
        assert body["type"].endswith("/" + slug)
    return body


@pytest.fixture(scope="module")
def game(live: Live) -> tuple[str, list[Player]]:
    return start_game(live, RULESETS[-1])


def test_an_idempotent_retry_returns_the_first_response_and_appends_nothing(live: Live) -> None:
    gid, players = start_game(live, RULESETS[0])
    p, v = acting(gid, players)
    key = {"Idempotency-Key": "retry-1"}
    first = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers=key)
    second = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers=key)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert p.get(f"/v1/games/{gid}").json()["version"] == first.json()["version"]
    other = dict(v["legal_actions"][-1]) if len(v["legal_actions"]) > 1 else {"type": "Nope"}
    if other == v["legal_actions"][0]:
        other = {"type": "Nope"}
    _problem(p.post(f"/v1/games/{gid}/commands", other, headers=key), 422, "idempotency-key-reused")


def test_if_match_on_an_old_version_is_412_and_nothing_is_appended(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    p, v = acting(gid, players)
    body = _problem(p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0],
                           headers={"If-Match": f'"{v["version"] - 1}"'}), 412, "precondition-failed")
    assert body["version"] == v["version"]
    assert p.get(f"/v1/games/{gid}").json()["version"] == v["version"]
    ok = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers={"If-Match": f'"{v["version"]}"'})
    assert ok.status_code == 200


@pytest.mark.parametrize("ruleset", RULESETS)
def test_two_seats_racing_are_serialised_and_the_loser_gets_a_409_with_its_legal_actions(
        live: Live, ruleset: str) -> None:
    gid, players = start_game(live, ruleset)
    p, v = acting(gid, players)
    # the same seat fires its two first legal actions at once from two connections: one wins
    actions = v["legal_actions"][:2] * (1 if len(v["legal_actions"]) > 1 else 2)
    results: list[requests.Response] = []
    barrier = threading.Barrier(len(actions))

    def send(a: dict[str, Any]) -> None:
        barrier.wait()
        results.append(requests.post(f"{live.url}/v1/games/{gid}/commands", json=a, headers=p.auth, timeout=30))

    threads = [threading.Thread(target=send, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results)
    assert 200 in codes and all(c in (200, 409, 422) for c in codes)
    versions = [r.json()["version"] for r in results if r.status_code == 200]
    assert len(set(versions)) == len(versions)  # no two commands decided on the same version
    truth = p.get(f"/v1/games/{gid}/events", params={"after": v["version"]}).json()
    assert truth["version"] == max(versions)
    for r in results:
        if r.status_code == 409:
            assert "legal_actions" in r.json()


def test_other_seats_commands_race_from_two_seats(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    p, v = acting(gid, players)
    others = [q for q in players if q is not p]
    results: list[requests.Response] = []
    barrier = threading.Barrier(2)

    def send(q: Player, a: dict[str, Any]) -> None:
        barrier.wait()
        results.append(requests.post(f"{live.url}/v1/games/{gid}/commands", json=a, headers=q.auth, timeout=30))

    ts = [threading.Thread(target=send, args=(p, v["legal_actions"][0])),
          threading.Thread(target=send, args=(others[0], v["legal_actions"][0]))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    codes = sorted(r.status_code for r in results)
    assert codes[0] == 200 and codes[1] in (409, 422)


def test_a_long_poll_wakes_within_a_second_of_another_seats_command(live: Live) -> None:
    gid, players = start_game(live, RULESETS[-1])
    p, v = acting(gid, players)
    watcher = next(q for q in players if q is not p)
    out: dict[str, Any] = {}

    def poll() -> None:
        r = watcher.get(f"/v1/games/{gid}/events", params={"after": v["version"], "wait": 20})
        out["at"] = time.monotonic()
        out["body"] = r.json()

    t = threading.Thread(target=poll)
    t.start()
    time.sleep(0.6)
    sent = time.monotonic()
    assert p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0]).status_code == 200
    t.join(10)
    assert out["at"] - sent < 1.0
    assert out["body"]["next_after"] > v["version"]


def test_a_long_poll_with_nothing_new_answers_an_empty_page_after_the_wait(live: Live, game: Any) -> None:
    gid, players = game
    head = players[0].get(f"/v1/games/{gid}").json()["version"]
    t0 = time.monotonic()
    page = players[0].get(f"/v1/games/{gid}/events", params={"after": head, "wait": 1}).json()
    assert 0.9 < time.monotonic() - t0 < 3 and page["events"] == [] and page["next_after"] == head


def test_401_without_or_with_a_bad_token(live: Live) -> None:
    _problem(requests.post(live.url + "/v1/games", json={"ruleset": "x", "seats": 2}, timeout=10), 401,
             "unauthorized")
    _problem(requests.get(live.url + "/v1/me/games", headers={"Authorization": "Bearer nope"}, timeout=10), 401)
    _problem(requests.get(live.url + "/v1/me/games", headers={"Authorization": "Basic a"}, timeout=10), 401)


def test_403_for_a_command_from_a_player_without_a_seat(live: Live, game: Any) -> None:
    gid, players = game
    stranger = live.player("stranger")
    _, v = acting(gid, players)
    _problem(stranger.post(f"/v1/games/{gid}/commands", v["legal_actions"][0]), 403, "forbidden")


def test_a_spectator_view_has_no_seat_and_no_legal_actions(live: Live, game: Any) -> None:
    gid, _ = game
    v = requests.get(f"{live.url}/v1/games/{gid}/view", timeout=10).json()
    assert v["seat"] is None and v["legal_actions"] == []


def test_404_for_unknown_games_and_odd_paths(live: Live, game: Any) -> None:
    gid, players = game
    for path in [f"/v1/games/{uuid.uuid4()}", f"/v1/games/{uuid.uuid4()}/view", "/v1/games/not-a-uuid",
                 "/nope", "/v1/games/%00/view", f"/v1/games/{uuid.uuid4()}/events"]:
        _problem(players[0].get(path), 404, "not-found")
    _problem(players[0].post(f"/v1/games/{uuid.uuid4()}/join", {}), 404)


#: The framework's own words for a 404 and a 405, which no answer of ours may carry.
FRAMEWORK = ("requested URL", "spelling", "not allowed for the requested")
SOME_GAME = "2ed1317e-5309-4a47-a781-093aa20144be"  # fixed: test ids must be the same in every worker


@pytest.mark.parametrize("method,path,words", [
    ("GET", "/v1/games/not-a-uuid", "the game id in this path is not a UUID"),
    ("GET", "/v1/games/not-a-uuid/view", "the game id in this path is not a UUID"),
    ("POST", "/v1/games/12345/commands", "the game id in this path is not a UUID"),
    ("GET", "/v1/games/%00/events", "the game id in this path is not a UUID"),
    ("GET", "/v1/games/not-a-uuid/audit", "the game id in this path is not a UUID"),
    ("DELETE", "/v1/me/tokens/abc", "the token id in this path is not a UUID"),
    ("GET", "/v1/me/webhooks/abc/deliveries", "the webhook id in this path is not a UUID"),
    ("DELETE", f"/v1/games/{SOME_GAME}/orders/first", "the order id in this path is not a whole number"),
    ("GET", "/nope", "nothing is served at this path"),
    ("POST", f"/v1/games/{SOME_GAME}/nonsense", "nothing is served at this path"),
    ("GET", "/web/no-such-file.js", "no such file"),
])
def test_every_404_is_a_problem_in_our_words_naming_the_part_of_the_path_that_is_wrong(
        live: Live, game: Any, method: str, path: str, words: str) -> None:
    _, players = game
    body = _problem(requests.request(method, live.url + path, headers=players[0].auth, timeout=10),
                    404, "not-found")
    assert words in body["detail"] and not any(w in body["detail"] for w in FRAMEWORK), body


def test_405_for_a_wrong_method_with_an_allow_header(live: Live) -> None:
    r = requests.delete(live.url + "/v1/games", timeout=10)
    body = _problem(r, 405, "method-not-allowed")
    assert "GET" in r.headers["Allow"]
    assert body["detail"].startswith("DELETE is not allowed at this path; it takes ") and "GET" in body["detail"]


def test_409_for_a_command_out_of_turn_with_the_legal_actions(live: Live, game: Any) -> None:
    gid, players = game
    p, v = acting(gid, players)
    idle = [q for q in players if q is not p]
    for q in idle:
        mine = q.get(f"/v1/games/{gid}/view").json()
        r = q.post(f"/v1/games/{gid}/commands", v["legal_actions"][0])
        if r.status_code == 409:
            assert r.json()["legal_actions"] == mine["legal_actions"]
            return
    raise AssertionError("no 409")


def test_409_joining_twice_or_a_full_game(live: Live, game: Any) -> None:
    gid, players = game
    _problem(players[1].post(f"/v1/games/{gid}/join", {}), 409, "already-seated")
    _problem(live.player("late").post(f"/v1/games/{gid}/join", {}), 409, "game-not-open")


def test_413_for_a_body_over_64_kib(live: Live) -> None:
    r = requests.post(live.url + "/v1/players", data=b'{"name":"' + b"x" * 70000 + b'"}',
                      headers={"Content-Type": "application/json"}, timeout=10)
    _problem(r, 413, "payload-too-large")


@pytest.mark.parametrize("body,status", [
    (b"{", 400), (b"not json", 400), (b"[1,2]", 422), (b'{"name": "a\\u0000b"}', 422),
    (b'{"name": "\\ud800"}', 422), (b'{"name": 12}', 422), (b'{"name": "a", "extra": 1}', 422),
    (b'{"name": NaN}', 400), (b'{"name": ' + b"9" * 5000 + b"}", 400), (b"[" * 5000 + b"]" * 5000, 400),
    (b'{"name": ""}', 422),
])
def test_bad_bodies_are_problems_never_500(live: Live, body: bytes, status: int) -> None:
    r = requests.post(live.url + "/v1/players", data=body, headers={"Content-Type": "application/json"}, timeout=10)
    _problem(r, status)


@pytest.mark.parametrize("body", [
    {"ruleset": "least-score", "seats": 10**30}, {"ruleset": "least-score", "seats": True},
    {"ruleset": "least-score", "seats": 2.5}, {"ruleset": "least-score", "seats": "4"},
    {"ruleset": "nope", "seats": 4}, {"ruleset": "least-score", "seats": 4, "options": {"nope": 1}},
    {"ruleset": "least-score", "seats": 4, "entropy": "xyz"}, {"ruleset": "least-score", "seats": 4, "bogus": 1},
    {"ruleset": "least-score", "seats": 4, "take_seat": "yes"},
])
def test_bad_game_creations_are_422_with_field_messages(live: Live, body: dict[str, Any]) -> None:
    p = live.player("creator")
    problem = _problem(p.post("/v1/games", body), 422)
    assert problem["errors"]


def test_bad_commands_are_422(live: Live, game: Any) -> None:
    gid, players = game
    p, _ = acting(gid, players)
    for body in [{"type": "NoSuchCommand"}, {"nope": 1}, {"type": "x\u0000"}, {"type": 5}]:
        _problem(p.post(f"/v1/games/{gid}/commands", body), 422)


def test_a_bad_if_match_or_idempotency_key_is_400(live: Live, game: Any) -> None:
    gid, players = game
    p, v = acting(gid, players)
    _problem(p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers={"If-Match": "abc"}), 400)
    _problem(p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0],
                    headers={"Idempotency-Key": "has space"}), 400)


def test_the_players_can_be_rebuilt_from_the_events(live: Live) -> None:
    from events import players
    from service.usecases.accounts import authenticate, rebuild_players

    someone = live.player("rebuilt")
    api = live.app.extensions["facedown"]
    before = players.all_rows(api.db)
    assert any(name == "rebuilt" for _, name, _ in before)
    players.clear(api.admin())  # as the owner: the service's own login may not write tables
    assert players.all_rows(api.db) == []
    assert rebuild_players(api) == len(before)
    assert players.all_rows(api.db) == before
    api.tokens.clear()  # this worker's cache of tokens it has seen: make the check read the table
    assert authenticate(api, someone.token) is not None


def test_the_game_index_can_be_rebuilt_from_the_events(live: Live) -> None:
    from events import game_index
    from service.adapters.repository import rebuild_index

    start_game(live, RULESETS[0])
    api = live.app.extensions["facedown"]
    before = game_index.all_rows(api.db)
    rebuild_index(api.store, api.admin())
    assert game_index.all_rows(api.db) == before and before
