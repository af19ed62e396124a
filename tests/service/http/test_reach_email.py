"""A player's e-mail address and signing in by e-mail, over HTTP: every answer of the contract
(202, 200, 204, 400 ``invalid-token``, 409 ``email-unavailable``, 422 naming ``email``, 429), the
outbox rows written for the sender (with the token or code its claim gives), and the address
in no answer, event or row but its owner's."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from psycopg import sql

from events.db import connect
from service.usecases.sessions import CODE_SECONDS
from tests.service.conftest import RULESETS
from tests.service.helpers import Live, serve, start_game
from tests.service.http.reach_support import claimed, mail_rows, put, reaching, verified

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def mailing(db_factory: object) -> Iterator[Live]:
    yield from reaching(db_factory.new())  # type: ignore[attr-defined]


def _problem(r: requests.Response, status: int, slug: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"].startswith(PROBLEM)
    body = r.json()
    assert body["type"] == f"/problems/{slug}", body
    return body


def test_an_address_is_given_verified_by_its_link_once_and_withdrawn(mailing: Live) -> None:
    ann = mailing.player("ann")
    me = ann.get("/v1/me").json()
    assert (me["email"], me["email_verified"], me["email_sending"]) == (None, False, True)
    r = put(ann, "/v1/me/email", {"email": "Ann@Example.org"})
    assert r.status_code == 202 and r.json() == {"email": "Ann@example.org", "email_verified": False}
    assert r.headers["Cache-Control"] == "private, no-store"
    [mail] = claimed(mailing, ann, "verify_email")
    assert mail.address == "Ann@example.org" and mail.args["address"] == "Ann@example.org"
    v = requests.post(mailing.url + "/v1/me/email/verify", json={"token": mail.secret}, timeout=10)
    assert v.status_code == 200 and v.json() == {"email": "Ann@example.org", "email_verified": True}
    assert v.headers["Cache-Control"] == "private, no-store"
    again = requests.post(mailing.url + "/v1/me/email/verify", json={"token": mail.secret}, timeout=10)
    assert "used" in _problem(again, 400, "invalid-token")["detail"]
    assert ann.get("/v1/me").json()["email_verified"] is True
    gone = ann.delete("/v1/me/email")
    assert gone.status_code == 204 and gone.headers["Cache-Control"] == "private, no-store"
    me = ann.get("/v1/me").json()
    assert (me["email"], me["email_verified"]) == (None, False)
    assert ann.delete("/v1/me/email").status_code == 204


def test_a_link_for_an_address_since_replaced_verifies_nothing(mailing: Live) -> None:
    ann = mailing.player("ann")
    put(ann, "/v1/me/email", {"email": "ann@example.org"})
    [first] = claimed(mailing, ann, "verify_email")
    put(ann, "/v1/me/email", {"email": "ann@example.net"})
    r = requests.post(mailing.url + "/v1/me/email/verify", json={"token": first.secret}, timeout=10)
    body = _problem(r, 400, "invalid-token")
    assert "replaced" in body["detail"] and "example" not in body["detail"] and ann.id not in body["detail"]
    assert ann.get("/v1/me").json()["email"] == "ann@example.net"


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"email": "not an address"}, 422, "email"), ({"email": "ann@"}, 422, "email"), ({"email": ""}, 422, "email"),
    ({"email": 7}, 422, "email"), ({"email": None}, 422, "email"), ({}, 422, "email"),
    ({"email": "a@example.org", "name": "x"}, 422, "name"), ([], 422, "_schema")])
def test_what_is_not_an_address_is_422_naming_the_field(mailing: Live, body: object, status: int,
                                                         field: str) -> None:
    ann = mailing.player("ann")
    for path in ("/v1/me/email", "/v1/session/email"):
        send = put if path == "/v1/me/email" else (lambda p, path_, b: p.post(path_, b))
        problem = _problem(send(ann, path, body), status, "validation")
        assert field in problem["errors"], problem
    assert mail_rows(mailing, ann) == []


@pytest.mark.parametrize("token", ["nope", "x" * 200, " "])
def test_a_token_of_no_link_is_400_and_a_malformed_body_is_400_or_422(mailing: Live, token: str) -> None:
    r = requests.post(mailing.url + "/v1/me/email/verify", json={"token": token}, timeout=10)
    _problem(r, 400, "invalid-token")
    _problem(requests.post(mailing.url + "/v1/me/email/verify", data=b"{", timeout=10,
                           headers={"Content-Type": "application/json"}), 400, "invalid-json")
    assert "token" in _problem(requests.post(mailing.url + "/v1/me/email/verify", json={"token": "y" * 201},
                                             timeout=10), 422, "validation")["errors"]


def test_the_address_routes_need_a_sign_in(mailing: Live) -> None:
    for method in ("put", "delete"):
        r = requests.request(method, mailing.url + "/v1/me/email", json={"email": "a@example.org"}, timeout=10)
        _problem(r, 401, "unauthorized")


def test_signing_in_by_e_mail_answers_the_same_and_mails_a_code_to_a_verified_address(mailing: Live) -> None:
    ann, bob = mailing.player("ann"), mailing.player("bob")
    verified(mailing, ann, "ann.signin@example.org")
    put(bob, "/v1/me/email", {"email": "bob.signin@example.org"})  # never verified
    answers = [requests.post(mailing.url + "/v1/session/email", json={"email": a}, timeout=10)
               for a in ("ANN.signin@example.org", "bob.signin@example.org", "nobody@example.org")]
    assert [r.status_code for r in answers] == [202, 202, 202]
    assert len({r.text for r in answers}) == 1 and answers[0].json() == {"expires_in": CODE_SECONDS}
    assert [r.kind for r in mail_rows(mailing, bob)] == ["verify_email"]
    [code] = claimed(mailing, ann, "signin_code")
    assert code.address == "ann.signin@example.org" and set(code.args) == {"expires_at"}
    device = requests.Session()
    opened = device.post(mailing.url + "/v1/session", json={"code": code.secret}, timeout=10)
    assert opened.status_code == 201 and opened.json()["player"]["id"] == ann.id
    assert "ann.signin" not in opened.text
    again = requests.post(mailing.url + "/v1/session", json={"code": code.secret}, timeout=10)
    _problem(again, 401, "invalid-code")


def test_a_server_without_e_mail_says_so_and_refuses_every_address_alike(live: Live) -> None:
    ann = live.player("ann")
    assert ann.get("/v1/me").json()["email_sending"] is False
    _problem(put(ann, "/v1/me/email", {"email": "ann@example.org"}), 409, "email-unavailable")
    bodies = {_problem(requests.post(live.url + "/v1/session/email", json={"email": a}, timeout=10), 409,
                       "email-unavailable")["detail"] for a in ("ann@example.org", "nobody@example.org")}
    assert len(bodies) == 1
    assert ann.get("/v1/me").json()["email"] is None


def test_the_routes_without_sign_in_are_rate_limited_per_address(db_factory: object) -> None:
    for server in reaching(db_factory.new(), rate_limit_per_second=1, rate_limit_burst=1):  # type: ignore[attr-defined]
        statuses = [requests.post(server.url + "/v1/me/email/verify", json={"token": "t"}, timeout=10).status_code
                    for _ in range(3)]
        assert statuses[0] == 400 and 429 in statuses
        r = requests.post(server.url + "/v1/session/email", json={"email": "a@example.org"}, timeout=10)
        assert _problem(r, 429, "rate-limited") and int(r.headers["Retry-After"]) >= 1


def _answers(live: Live, viewer: object, gid: str, handle: str) -> list[str]:
    paths = [f"/v1/players/{handle}", f"/v1/games/{gid}", f"/v1/games/{gid}/view", f"/v1/games/{gid}/events",
             "/v1/games", "/v1/me/games", "/v1/me/notifications", "/v1/me", f"/v1/games/{gid}/audit"]
    return [viewer.get(p).text for p in paths]  # type: ignore[attr-defined]


def test_no_one_but_its_owner_ever_sees_an_address(mailing: Live) -> None:
    address = "ann.private@example.org"
    gid, players = start_game(mailing, RULESETS[0], seats=2)
    ann, bob = players
    handle = ann.get("/v1/me").json()["handle"]
    verified(mailing, ann, address)
    put(ann, "/v1/me/notification-settings", {"email": {"turn": "immediate"}})
    stranger = mailing.player("eve")
    for viewer in (bob, stranger):
        for text in _answers(mailing, viewer, gid, handle):
            assert address not in text.lower()
    assert requests.get(mailing.url + f"/v1/players/{handle}", timeout=10).text.lower().count(address) == 0
    assert address in ann.get("/v1/me").text
    # and nowhere in the store but the address's own table, its tokens and its owner's e-mails
    own = {"player_emails", "email_tokens", "mail_outbox"}
    with connect(mailing.database_url) as conn:
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        found = {t for t in tables if t not in own and conn.execute(
            sql.SQL("SELECT count(*) FROM {} t WHERE t::text ILIKE %s").format(sql.Identifier(t)),
            (f"%{address}%",)).fetchone()[0]}
        assert found == set()
        kept = conn.execute("SELECT DISTINCT player_id::text FROM mail_outbox WHERE to_address ILIKE %s"
                            " OR args::text ILIKE %s", (address, f"%{address}%")).fetchall()
        assert kept in ([], [(ann.id,)])


@pytest.mark.parametrize(("method", "path"), [
    ("put", "/v1/me/email"), ("delete", "/v1/me/email"), ("get", "/v1/me/push-subscriptions"),
    ("post", "/v1/me/push-subscriptions"), ("delete", "/v1/me/push-subscriptions/0d6c3f5e-2b1a-4c8e-9f7d-6a5b4c3d2e1f"),
    ("get", "/v1/me/notification-settings"), ("put", "/v1/me/notification-settings")])
def test_every_route_of_a_player_s_own_needs_a_sign_in(mailing: Live, method: str, path: str) -> None:
    r = requests.request(method, mailing.url + path, json={}, timeout=10)
    _problem(r, 401, "unauthorized")


def test_the_web_client_s_session_needs_its_csrf_token_to_give_an_address(mailing: Live) -> None:
    browser = requests.Session()
    opened = browser.post(mailing.url + "/v1/session/register", json={"name": "ann"}, timeout=10)
    assert opened.status_code == 201, opened.text
    r = browser.put(mailing.url + "/v1/me/email", json={"email": "ann.web@example.org"}, timeout=10)
    _problem(r, 403, "csrf")
    r = browser.put(mailing.url + "/v1/me/email", json={"email": "ann.web@example.org"}, timeout=10,
                    headers={"X-CSRF-Token": opened.json()["csrf_token"]})
    assert r.status_code == 202, r.text
    assert browser.get(mailing.url + "/v1/me", timeout=10).json()["email"] == "ann.web@example.org"
