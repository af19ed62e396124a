"""Bodies are UTF-8 ``application/json`` with each key once; integers in queries and headers
are ASCII digits. Everything else is a problem (415, 400 or 422), never a 500."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.service.conftest import RULESETS
from tests.service.helpers import Live, Player, start_game

PROBLEM = "application/problem+json"


def _problem(r: requests.Response, status: int, slug: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"].startswith(PROBLEM)
    body = r.json()
    assert body["status"] == status and body["type"].endswith("/" + slug), body
    return body


def _register(live: Live, body: bytes, content_type: str | None) -> requests.Response:
    headers = {} if content_type is None else {"Content-Type": content_type}
    return requests.post(live.url + "/v1/players", data=body, headers=headers, timeout=10)


@pytest.fixture(scope="module")
def game(live: Live) -> tuple[str, list[Player]]:
    return start_game(live, RULESETS[0])


@pytest.mark.parametrize("content_type", [
    None, "text/plain", "application/x-www-form-urlencoded", "application/problem+json",
    "application/vnd.api+json", "application/json; charset=utf-16", "application/json; charset=iso-8859-1",
    "application/jsonx",
])
def test_a_body_not_sent_as_application_json_is_415(live: Live, content_type: str | None) -> None:
    r = _register(live, b'{"name": "ann"}', content_type)
    _problem(r, 415, "unsupported-media-type")
    assert r.headers["Accept-Post"] == "application/json"


@pytest.mark.parametrize("body", [
    '{"name": "ann"}'.encode("utf-16"),  # with its byte order mark
    '{"name": "ann"}'.encode("utf-16-le"),
    '{"name": "ann"}'.encode("utf-32"),
    b"\xef\xbb\xbf" + b'{"name": "ann"}',  # UTF-8 with a byte order mark
    '{"name": "Ren\u00e9e"}'.encode("latin-1"),  # not UTF-8
])
def test_a_json_body_in_another_encoding_is_415(live: Live, body: bytes) -> None:
    _problem(_register(live, body, "application/json"), 415, "unsupported-media-type")


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON; Charset=UTF-8"])
def test_utf8_json_is_accepted_with_or_without_its_charset(live: Live, content_type: str) -> None:
    r = _register(live, '{"name": "Ren\u00e9e \u2660"}'.encode(), content_type)
    assert r.status_code == 201 and r.json()["name"] == "Ren\u00e9e \u2660"


@pytest.mark.parametrize("body", [b'{"name": "a", "name": "b"}', b'{"name": "a", "x": {"k": 1, "k": 1}}'])
def test_a_key_twice_in_one_object_is_400(live: Live, body: bytes) -> None:
    detail = _problem(_register(live, body, "application/json"), 400, "invalid-json")["detail"]
    assert "appears twice" in detail


def test_a_command_with_a_field_twice_is_400_and_nothing_is_appended(game: Any) -> None:
    gid, players = game
    before = players[0].get(f"/v1/games/{gid}").json()["version"]
    r = players[0]._session().post(
        f"{players[0].live.url}/v1/games/{gid}/commands", data=b'{"type": "Draw", "type": "CallCorte"}',
        headers={**players[0].auth, "Content-Type": "application/json"}, timeout=10)
    _problem(r, 400, "invalid-json")
    assert players[0].get(f"/v1/games/{gid}").json()["version"] == before


@pytest.mark.parametrize("query", ["after=\uff11", "after=\u00b2", "after=+1", "after=1_0", "after=%201",
                                   "limit=\u0661", "wait=-1", "after=99999999999999999"])
def test_query_integers_are_ascii_digits(game: Any, query: str) -> None:
    gid, players = game
    _problem(players[0].get(f"/v1/games/{gid}/events?{query}"), 422, "validation")


def test_ascii_digits_are_still_integers(game: Any) -> None:
    gid, players = game
    r = players[0].get(f"/v1/games/{gid}/events?after=0&limit=2")
    assert r.status_code == 200 and len(r.json()["events"]) == 2
    assert requests.get(players[0].live.url + "/v1/games?limit=5", timeout=10).status_code == 200


@pytest.mark.parametrize("value", ['"\u00b2"', '"\u00bd"', "W/\"\u00b9\"", "\u00b3"])
def test_an_entity_tag_that_is_not_ascii_digits_is_400(game: Any, value: str) -> None:
    gid, players = game
    _problem(players[0].get(f"/v1/games/{gid}", headers={"If-None-Match": value}), 400, "bad-request")
    _problem(players[0].post(f"/v1/games/{gid}/commands", {"type": "Draw"}, headers={"If-Match": value}),
             400, "bad-request")


@pytest.mark.parametrize("query", ["seat=\u00b2", "seat=\uff10", "seat=0&version=\u00b9", "seat=+0"])
def test_audit_view_integers_are_ascii_digits(game: Any, query: str) -> None:
    gid, players = game
    _problem(players[0].get(f"/v1/games/{gid}/audit/view?{query}"), 422, "validation")


@pytest.mark.parametrize("spelled", ["{%s}", "urn:uuid:%s", "%s".replace("%s", "\uff11" * 32)])
def test_an_audit_of_a_game_id_in_another_spelling_is_404(game: Any, spelled: str) -> None:
    gid, players = game
    path = spelled % gid if "%s" in spelled else spelled
    _problem(players[0].get(f"/v1/games/{path}/audit"), 404, "not-found")
