"""A player's account: /v1/me, a unique case-insensitive handle, public profiles with the
games played and won, and several bearer tokens (issue, list with last use, revoke)."""
from __future__ import annotations

import uuid

import requests

from tests.service.helpers import Live, Player
from tests.service.http.lifecycle.clocked import Clock, delete, put, started


def _as(p: Player, token: str) -> Player:
    return Player(p.live, p.id, p.name, token)


def test_a_revoked_token_gets_401(live: Live) -> None:
    ann = live.player("ann")
    issued = ann.post("/v1/me/tokens", {"label": "phone"})
    assert issued.status_code == 201 and issued.json()["label"] == "phone"
    phone = _as(ann, issued.json()["token"])
    assert phone.get("/v1/me").json()["id"] == ann.id
    listed = ann.get("/v1/me/tokens").json()["tokens"]
    assert [t["label"] for t in listed] == ["registration", "phone"]
    assert [t["current"] for t in listed] == [True, False] and all(t["last_used_at"] for t in listed)
    assert "token" not in listed[1]
    r = delete(ann, f"/v1/me/tokens/{issued.json()['id']}")
    assert r.status_code == 204
    refused = phone.get("/v1/me")
    assert refused.status_code == 401 and refused.headers["Content-Type"] == "application/problem+json"
    assert ann.get("/v1/me").status_code == 200
    assert delete(ann, f"/v1/me/tokens/{issued.json()['id']}").status_code == 404


def test_a_token_revoked_through_one_worker_gets_401_from_every_other_at_once(live: Live) -> None:
    """``facedown serve`` runs several workers, each remembering the tokens it has checked:
    the first request after the revocation's 204, on another worker, is refused."""
    from tests.service.helpers import serve

    for other in serve(live.database_url):  # a second worker on the same database
        ann = live.player("ann")
        spare = ann.post("/v1/me/tokens", {"label": "laptop"}).json()
        on_other = Player(other, ann.id, ann.name, spare["token"])
        assert on_other.get("/v1/me").status_code == 200  # the other worker now remembers it
        assert delete(ann, f"/v1/me/tokens/{spare['id']}").status_code == 204
        assert on_other.get("/v1/me").status_code == 401
        assert Player(other, ann.id, ann.name, ann.token).get("/v1/me").status_code == 200


def test_a_player_may_revoke_the_token_they_call_with_and_not_anothers(live: Live) -> None:
    ann, bob = live.player("ann"), live.player("bob")
    spare = _as(ann, ann.post("/v1/me/tokens", {}).json()["token"])
    assert delete(bob, f"/v1/me/tokens/{ann.id}").status_code == 404
    assert delete(ann, f"/v1/me/tokens/{ann.id}").status_code == 204  # the registration's token
    assert ann.get("/v1/me").status_code == 401
    assert spare.get("/v1/me").json()["tokens"] == 1


def test_me_shows_the_profile_and_the_vacation_balance(live: Live) -> None:
    ann = live.player("Ann Smith")
    me = ann.get("/v1/me").json()
    assert me["id"] == ann.id and me["name"] == "Ann Smith" and me["handle"].startswith("ann-smith-")
    assert me["vacation"]["remaining_days"] == 30 and me["tokens"] == 1
    assert requests.get(f"{live.url}/v1/me", timeout=10).status_code == 401


def test_handles_are_unique_whatever_the_case_and_validated(live: Live) -> None:
    ann, bob = live.player("ann"), live.player("bob")
    r = put(ann, "/v1/me/handle", {"handle": "  Annie_1 "})
    assert r.status_code == 200 and r.json()["handle"] == "Annie_1"
    taken = put(bob, "/v1/me/handle", {"handle": "annie_1"})
    assert taken.status_code == 409 and taken.json()["type"].endswith("/handle-taken")
    for bad in ("ab", "x" * 25, "no spaces", "émile", "", "a.b", "dot.", "ann@home", " \t ", "  ab  "):
        assert put(bob, "/v1/me/handle", {"handle": bad}).status_code == 422, bad
    for good in ("abc", "y" * 24, "\tA-b_9\n", "-_-"):  # 3 and 24 characters; trimmed; _ and - anywhere
        r = put(bob, "/v1/me/handle", {"handle": good})
        assert r.status_code == 200 and r.json()["handle"] == good.strip(), good
    assert bob.get("/v1/players/ANNIE_1").json()["id"] == ann.id
    assert bob.get("/v1/players/nobody-here").status_code == 404


def test_a_player_chooses_a_language_the_web_client_speaks_and_no_other(live: Live) -> None:
    ann = live.player("ann")
    assert ann.get("/v1/me").json()["locale"] is None  # until chosen: the browser's languages
    r = put(ann, "/v1/me/locale", {"locale": "pt-br"})
    assert r.status_code == 200 and r.json()["locale"] == "pt-BR"  # BCP 47 tags: any case
    assert ann.get("/v1/me").json()["locale"] == "pt-BR"
    for bad in ("fr", "pt", "es-ES", "", "en; DROP", 7):
        refused = put(ann, "/v1/me/locale", {"locale": bad})
        assert refused.status_code == 422 and refused.headers["Content-Type"] == "application/problem+json", bad
        assert refused.json()["type"].endswith("/validation"), bad
    assert put(ann, "/v1/me/locale", {"lang": "es"}).status_code == 422
    assert put(ann, "/v1/me/locale", {"locale": "es"}).json()["locale"] == "es"
    assert put(ann, "/v1/me/locale", {"locale": "es"}).json()["locale"] == "es"  # again: nothing new
    stream = live.app.extensions["facedown"].store.read(uuid.UUID(ann.id))
    assert [r.data["locale"] for r in stream if r.type == "LocaleChosen"] == ["pt-BR", "es"]  # in the player's stream
    assert ann.get("/v1/me").json()["handle"]  # the rest of the account as it was


def test_a_public_profile_counts_games_played_and_won_per_ruleset(live: Live) -> None:
    gid, (ann, bob) = started(live, "corte")
    ann.post(f"/v1/games/{gid}/resign")
    other, (cat, dan) = started(live, "pedro")
    dan.post(f"/v1/games/{other}/resign")
    ann_handle, bob_handle = ann.get("/v1/me").json()["handle"], bob.get("/v1/me").json()["handle"]
    assert ann.get(f"/v1/players/{bob_handle}").json()["games"] == {
        "played": 1, "won": 1, "rulesets": {"corte": {"played": 1, "won": 1}}}
    assert bob.get(f"/v1/players/{ann_handle}").json()["games"]["won"] == 0


def test_the_players_read_models_are_rebuilt_from_their_streams(live: Live, clock: Clock) -> None:
    from events import players
    from service.usecases.accounts import rebuild_players

    ann = live.player("ann")
    put(ann, "/v1/me/handle", {"handle": "ann-r"})
    spare = ann.post("/v1/me/tokens", {"label": "x"}).json()
    delete(ann, f"/v1/me/tokens/{spare['id']}")
    ann.post("/v1/me/vacation", {"days": 2})
    clock.advance(3600)
    delete(ann, "/v1/me/vacation")
    api = live.app.extensions["facedown"]
    before = players.account_rows(api.db)
    rebuild_players(api)
    assert players.account_rows(api.db) == before


def test_a_revoked_token_changes_and_reads_nothing_on_a_worker_that_remembers_it(live: Live) -> None:
    """The liveness read rides ahead of the request's first statement (events/db.py's guard):
    refused there, a command appends nothing; and a request answered from the worker's caches
    alone (a proof of a game it holds: no statement) is checked before it answers."""
    from tests.service.helpers import acting, serve, start_game

    for other in serve(live.database_url):
        gid, players = start_game(live, "corte")
        ann, view = acting(gid, players)
        spares = [ann.post("/v1/me/tokens", {"label": f"tablet {i}"}).json() for i in range(2)]
        tablets = [Player(other, ann.id, ann.name, s["token"]) for s in spares]
        proof = f"/v1/games/{gid}/proof/consistency?from=1&to={view['version']}"
        for tablet in tablets:  # the other worker remembers both tokens, and holds the game and its tree
            assert tablet.get(f"/v1/games/{gid}/view").status_code == 200
            assert tablet.get(proof).status_code == 200
        for spare in spares:
            assert delete(ann, f"/v1/me/tokens/{spare['id']}").status_code == 204
        refused = tablets[0].get(proof)
        assert refused.status_code == 401 and refused.json()["detail"] == "the token is not valid"
        command = tablets[1].post(f"/v1/games/{gid}/commands", view["legal_actions"][0])
        assert command.status_code == 401 and command.json()["detail"] == "the token is not valid"
        assert ann.get(f"/v1/games/{gid}/view").json()["version"] == view["version"]  # nothing appended
        assert tablets[1].get(f"/v1/games/{gid}/view").status_code == 401
        assert Player(other, ann.id, ann.name, ann.token).get(proof).status_code == 200
