"""The web client's sessions: an HttpOnly cookie exchanged for a token, a registration or a
one-time code; a CSRF token on every request that changes something with the cookie; bearer
clients exactly as before; signing out; codes that expire and work once."""
from __future__ import annotations

from typing import Any

import requests

from service.usecases.sessions import CODE_SECONDS
from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import Clock


def _browser(live: Live) -> requests.Session:
    s = requests.Session()
    s.headers["Origin"] = live.url  # what a browser sends with a POST from the page
    return s


def _register(live: Live, name: str = "ann") -> tuple[requests.Session, dict[str, Any]]:
    s = _browser(live)
    r = s.post(live.url + "/v1/session/register", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return s, r.json()


def _set_cookie(r: requests.Response, name: str) -> str:
    return next(h for h in r.raw.headers.getlist("Set-Cookie") if h.startswith(name + "="))


def test_registering_in_the_browser_sets_an_httponly_samesite_cookie_and_shows_the_token_once(live: Live) -> None:
    s = _browser(live)
    r = s.post(live.url + "/v1/session/register", json={"name": "ann", "handle": "ann-web"}, timeout=10)
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store"
    body = r.json()
    assert body["signed_in"] and body["player"]["handle"] == "ann-web" and body["token"] and body["csrf_token"]
    session = _set_cookie(r, "facedown_session")
    assert "HttpOnly" in session and "SameSite=Lax" in session and "Path=/" in session
    assert body["token"] not in session  # the session is a token of its own, never the one shown
    csrf = _set_cookie(r, "facedown_csrf")
    assert "HttpOnly" not in csrf and body["csrf_token"] in csrf
    me = s.get(live.url + "/v1/session", timeout=10).json()
    assert me["signed_in"] and me["player"]["id"] == body["player"]["id"] and me["csrf_token"] == body["csrf_token"]
    assert "token" not in me
    # the registration's token works as a bearer token, and lists the session beside it
    tokens = requests.get(live.url + "/v1/me/tokens", headers={"Authorization": f"Bearer {body['token']}"},
                          timeout=10).json()["tokens"]
    assert [t["label"] for t in tokens] == ["registration", "web session"]


def test_without_a_session_the_page_learns_it_is_signed_out_without_an_error(live: Live) -> None:
    r = requests.get(live.url + "/v1/session", timeout=10)
    assert r.status_code == 200 and r.json() == {"signed_in": False, "player": None, "csrf_token": None}


def test_a_change_made_with_the_cookie_needs_the_csrf_token(live: Live) -> None:
    s, body = _register(live)
    refused = s.post(live.url + "/v1/games", json={"ruleset": "pedro", "seats": 2}, timeout=10)
    assert refused.status_code == 403 and refused.json()["type"] == "/problems/csrf"
    assert refused.headers["Content-Type"] == "application/problem+json"
    wrong = s.post(live.url + "/v1/games", json={"ruleset": "pedro", "seats": 2}, headers={"X-CSRF-Token": "0" * 64},
                   timeout=10)
    assert wrong.status_code == 403
    made = s.post(live.url + "/v1/games", json={"ruleset": "pedro", "seats": 2},
                  headers={"X-CSRF-Token": body["csrf_token"]}, timeout=10)
    assert made.status_code == 201, made.text
    # reading needs no CSRF token: the cookie alone signs the reader in
    assert s.get(live.url + "/v1/me/games", timeout=10).json()["games"][0]["id"] == made.json()["id"]


def test_a_bearer_request_is_as_before_whatever_cookie_comes_with_it(live: Live) -> None:
    s, body = _register(live)
    bob = live.player("bob")
    r = s.post(live.url + "/v1/games", json={"ruleset": "pedro", "seats": 2}, headers=bob.auth, timeout=10)
    assert r.status_code == 201 and r.json()["creator"] == bob.id


def test_a_session_cannot_be_opened_from_another_sites_page(live: Live) -> None:
    evil = requests.post(live.url + "/v1/session/register", json={"name": "x"},
                         headers={"Origin": "https://elsewhere.example"}, timeout=10)
    assert evil.status_code == 403 and evil.json()["type"] == "/problems/csrf"
    fetched = requests.post(live.url + "/v1/session", json={"token": "abc"}, headers={"Sec-Fetch-Site": "cross-site"},
                            timeout=10)
    assert fetched.status_code == 403


def test_a_token_opens_a_session_and_signing_out_revokes_it_but_not_the_token(live: Live) -> None:
    ann = live.player("ann")
    s = _browser(live)
    assert s.post(live.url + "/v1/session", json={"token": "not-a-token"}, timeout=10).status_code == 401
    r = s.post(live.url + "/v1/session", json={"token": ann.token}, timeout=10)
    assert r.status_code == 201 and r.json()["player"]["id"] == ann.id and "token" not in r.json()
    cookie = s.cookies.get("facedown_session")
    csrf = r.json()["csrf_token"]
    assert s.delete(live.url + "/v1/session", timeout=10).status_code == 403  # sign-out needs the CSRF token too
    out = s.delete(live.url + "/v1/session", headers={"X-CSRF-Token": csrf}, timeout=10)
    assert out.status_code == 204 and not s.cookies.get("facedown_session")
    stale = requests.get(live.url + "/v1/me", cookies={"facedown_session": cookie}, timeout=10)
    assert stale.status_code == 401 and stale.json()["type"] == "/problems/unauthorized"
    assert requests.get(live.url + "/v1/session", cookies={"facedown_session": cookie}, timeout=10).json()["signed_in"] is False
    assert ann.get("/v1/me").status_code == 200


def test_a_one_time_code_signs_in_another_device_once(live: Live) -> None:
    laptop, body = _register(live)
    assert laptop.post(live.url + "/v1/session/codes", timeout=10).status_code == 403
    issued = laptop.post(live.url + "/v1/session/codes", headers={"X-CSRF-Token": body["csrf_token"]}, timeout=10)
    assert issued.status_code == 201 and issued.json()["expires_in"] == CODE_SECONDS
    code = issued.json()["code"]
    phone = _browser(live)
    typed = code.lower().replace("-", " ")  # as typed on a phone
    r = phone.post(live.url + "/v1/session", json={"code": typed}, timeout=10)
    assert r.status_code == 201 and r.json()["player"]["id"] == body["player"]["id"]
    assert phone.get(live.url + "/v1/me", timeout=10).json()["id"] == body["player"]["id"]
    again = _browser(live).post(live.url + "/v1/session", json={"code": code}, timeout=10)
    assert again.status_code == 401 and again.json()["type"] == "/problems/invalid-code"
    wrong = _browser(live).post(live.url + "/v1/session", json={"code": "AAAAA-AAAAA"}, timeout=10)
    assert wrong.status_code == 401 and wrong.json()["type"] == "/problems/invalid-code"


def test_a_bearer_client_may_issue_a_code_and_a_code_expires(live: Live, clock: Clock) -> None:
    ann = live.player("ann")
    code = ann.post("/v1/session/codes").json()["code"]
    clock.advance(CODE_SECONDS + 1)
    late = _browser(live).post(live.url + "/v1/session", json={"code": code}, timeout=10)
    assert late.status_code == 401 and late.json()["type"] == "/problems/invalid-code"
    fresh = ann.post("/v1/session/codes").json()["code"]
    clock.advance(CODE_SECONDS - 1)
    assert _browser(live).post(live.url + "/v1/session", json={"code": fresh}, timeout=10).status_code == 201


def test_the_codes_only_digest_is_stored_and_a_rebuild_gives_the_rows_back(live: Live) -> None:
    from events import players
    from service.usecases.accounts import rebuild_players

    ann = live.player("ann")
    code = ann.post("/v1/session/codes").json()["code"]
    api = live.app.extensions["facedown"]
    rows = players.account_rows(api.db)
    assert not any(code.replace("-", "") in str(r) for r in rows)
    rebuild_players(api)
    assert players.account_rows(api.db) == rows


def test_the_page_is_served_with_a_policy_that_forbids_inline_script(live: Live) -> None:
    r = requests.get(live.url + "/", timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "style-src 'self'" in csp
    assert "<script>" not in r.text and " style=" not in r.text
    assert requests.get(live.url + "/web/js/main.js", timeout=10).status_code == 200
    missing = requests.get(live.url + "/web/%2e%2e%2f__init__.py", timeout=10)
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
    assert requests.get(live.url + "/sw.js", timeout=10).headers["Content-Type"].startswith("text/javascript")
