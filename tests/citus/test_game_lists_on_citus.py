"""Both game lists on the cluster, through `facedown serve` on the coordinator: every filter of
`GET /v1/games` (with and without a token) and of `GET /v1/me/games`, each followed page after
page by its `next_cursor`, answers 200 and lists exactly the games that match, each once.

Without a token the public list once joined the seats on ``player_id = NULL``, which
PostgreSQL folds to false, dropping the join's stream equality: Citus refused the query (500).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from facedown_client import Client, play_seats, random_policy
from service.tools.contract.conformance import SHORT
from tests.sdk.conftest import Served, facedown_serve

STATUSES = ("open", "active", "finished", "aborted", "cancelled")
RULESETS = ("corte", "cuatro-cartas", "pedro", "least-score")
# every filter alone, then a few together; None is the list unfiltered
FILTERS: list[dict[str, str]] = (
    [{}] + [{"status": s} for s in STATUSES] + [{"ruleset": r} for r in RULESETS]
    + [{"may_act": "true"}, {"may_act": "false"}, {"seats_free": "0"}, {"seats_free": "1"}, {"seats_free": "2"}]
    + [{"status": "open", "ruleset": "corte", "seats_free": "1"}, {"status": "active", "may_act": "false"}])


@dataclass
class Table:
    url: str
    ann: Client
    bob: Client
    ours: dict[str, dict[str, Any]]  # the games this module made, as Ann's list shows them
    unlisted: str


@pytest.fixture(scope="module")
def served_lists(coordinator: str) -> Iterator[Served]:
    # dozens of costly reads without a token in a row: the per-address limit is not under test
    yield from facedown_serve(coordinator, FACEDOWN_RATE_LIMIT_PER_SECOND="0")


@pytest.fixture(scope="module")
def table(served_lists: Served) -> Table:
    """Ann's games in every status the API can reach quickly, of every ruleset, public and not."""
    ann, bob = Client(served_lists.url), Client(served_lists.url)
    ann.register("lister-ann")
    bob.register("lister-bob")
    ours: set[str] = set()
    for ruleset in RULESETS:  # open, waiting for one or two more
        ours.add(ann.create_game(ruleset, 3 if ruleset != "least-score" else 4, SHORT[ruleset]).id)
    active = ann.create_game("pedro", 2, SHORT["pedro"]).id
    bob.join(active)
    finished = ann.create_game("least-score", 2, SHORT["least-score"]).id
    bob.join(finished)
    play_seats([ann, bob], finished, random_policy, seed=5)
    cancelled = ann.create_game("corte", 2, SHORT["corte"]).id
    ann.request("DELETE", f"/v1/games/{cancelled}")
    unlisted = ann.create_game("pedro", 2, SHORT["pedro"], visibility="unlisted").id
    ours |= {active, finished, cancelled, unlisted}
    assert ann.game(finished).status == "finished" and ann.game(cancelled).status == "cancelled"
    mine = _pages(served_lists.url, "/v1/me/games", ann.token, {})
    assert {g["id"] for g in mine} == ours, "Ann's list is her games, the unlisted one too"
    return Table(served_lists.url, ann, bob, {g["id"]: g for g in mine}, unlisted)


def _pages(url: str, path: str, token: str | None, query: dict[str, str]) -> list[dict[str, Any]]:
    """Every item of a list, page after page (two games a page)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    items: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        params = {**query, "limit": "2", **({"cursor": cursor} if cursor else {})}
        r = requests.get(url + path, params=params, headers=headers, timeout=30)
        assert r.status_code == 200, (path, params, bool(token), r.status_code, r.text)
        page = r.json()
        items += page["games"]
        pages += 1
        cursor = page["next_cursor"]
        if not cursor:
            assert pages < 1000
            return items


def _matches(game: dict[str, Any], query: dict[str, str]) -> bool:
    return (game["status"] == query.get("status", game["status"])
            and game["ruleset"] == query.get("ruleset", game["ruleset"])
            and game["free_seats"] >= int(query.get("seats_free", "0"))
            and str(game["may_act"]).lower() == query.get("may_act", str(game["may_act"]).lower()))


def _every_match_once(items: list[dict[str, Any]], expected: set[str], query: dict[str, str]) -> None:
    ids = [g["id"] for g in items]
    assert len(ids) == len(set(ids)), ("a game listed twice", query)
    assert all(_matches(g, query) for g in items), query
    assert expected <= set(ids), (sorted(expected - set(ids)), query)


@pytest.mark.parametrize("query", FILTERS, ids=lambda q: "&".join(f"{k}={v}" for k, v in q.items()) or "all")
def test_the_public_list_answers_every_filter_with_and_without_a_token_page_after_page(
        table: Table, query: dict[str, str]) -> None:
    public = {i: g for i, g in table.ours.items() if g["visibility"] == "public"}
    assert table.unlisted not in public
    with_token = _pages(table.url, "/v1/games", table.ann.token, query)
    _every_match_once(with_token, {i for i, g in public.items() if _matches(g, query)}, query)
    anonymous = _pages(table.url, "/v1/games", None, query)
    assert all(g["your_seat"] is None and not g["may_act"] for g in anonymous)
    # a caller without a seat may act nowhere: the same games as Ann's, bar her own may_act
    _every_match_once(anonymous, {i for i, g in public.items() if _matches(g | {"may_act": False}, query)}, query)
    assert all(g["visibility"] == "public" for g in with_token + anonymous)


@pytest.mark.parametrize("query", FILTERS, ids=lambda q: "&".join(f"{k}={v}" for k, v in q.items()) or "all")
def test_a_players_list_answers_every_filter_page_after_page(table: Table, query: dict[str, str]) -> None:
    items = _pages(table.url, "/v1/me/games", table.ann.token, query)
    _every_match_once(items, {i for i, g in table.ours.items() if _matches(g, query)}, query)
    assert {g["id"] for g in items} <= set(table.ours)
    later = [not g["may_act"] for g in items]
    assert later == sorted(later), "the games where Ann may act come first"


def test_a_players_list_needs_a_token_and_the_public_list_waits_without_one(table: Table) -> None:
    r = requests.get(table.url + "/v1/me/games", params={"status": "finished"}, timeout=10)
    assert r.status_code == 401 and r.headers["Content-Type"] == "application/problem+json"
    first = requests.get(table.url + "/v1/games", params={"status": "finished"}, timeout=10)
    assert first.status_code == 200
    held = requests.get(table.url + "/v1/games", params={"status": "finished", "wait": "1"},
                        headers={"If-None-Match": first.headers["ETag"]}, timeout=10)
    assert held.status_code == 304
