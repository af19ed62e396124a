"""Game chat over real HTTP (docs/chat.md): limits, seated only, spectators per the game's
visibility, mutes, reports, an operator's hide, the rate limit, the game's event stream and
the chat notification."""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from events.db import Database
from events.store import EventStore
from service.model.chat import stream_of
from service.usecases import chat
from tests.service.helpers import Live, Player, serve
from tests.service.sse_client import Stream

RULESET = "corte"


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    # a chat budget no test here spends but the rate limit's own (which has its server)
    yield from serve(db_factory.new(), recheck_seconds=60, stream_heartbeat_seconds=0.5,  # type: ignore[attr-defined]
                     extra={"chat_rate": (100.0, 100.0)})


def _game(live: Live, seats: int = 2, visibility: str = "public") -> tuple[str, list[Player]]:
    players = [live.player(f"chat-{i}") for i in range(seats)]
    r = players[0].post("/v1/games", {"ruleset": RULESET, "seats": seats, "visibility": visibility})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    code = players[0].get(f"/v1/games/{gid}/invite_code").json().get("invite_code")
    for p in players[1:]:
        j = p.post(f"/v1/games/{gid}/join", {"invite_code": code} if code else {})
        assert j.status_code == 200, j.text
    return gid, players


def _say(p: Player, gid: str, text: Any) -> Any:
    return p.post(f"/v1/games/{gid}/chat", {"text": text})


def _texts(p: Player | None, live: Live, gid: str, after: int = 0) -> list[str]:
    if p is None:
        import requests
        r = requests.get(f"{live.url}/v1/games/{gid}/chat", params={"after": after}, timeout=10)
    else:
        r = p.get(f"/v1/games/{gid}/chat", params={"after": after})
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


def test_a_seated_player_posts_and_the_table_reads_it_trimmed_and_numbered(live: Live) -> None:
    gid, (ann, bob) = _game(live)
    r = _say(ann, gid, "  good luck, all  ")
    assert r.status_code == 201, r.text
    m = r.json()
    assert m["text"] == "good luck, all" and m["seat"] == 0 and m["player"]["id"] == ann.id
    assert _say(bob, gid, "ñ和🂡 you too").status_code == 201
    page = bob.get(f"/v1/games/{gid}/chat").json()["messages"]
    assert [x["text"] for x in page] == ["good luck, all", "ñ和🂡 you too"]
    assert page[0]["n"] < page[1]["n"] and page[1]["seat"] == 1 and page[1]["player"]["name"] == bob.name
    assert _texts(ann, live, gid, after=page[0]["n"]) == ["ñ和🂡 you too"]
    # the game's own log never holds a word of it
    events = ann.get(f"/v1/games/{gid}/events").json()["events"]
    assert not any("good luck" in json.dumps(e) for e in events)


@pytest.mark.parametrize("text, reason", [
    ("", "empty"), ("   \t ", "empty"), ("x" * 501, "at most 500"), ("a\nb", "U+000A"), ("a\u0000b", "NUL"),
    ("a\u202eb", "U+202E"), ("a\x7fb", "U+007F"), (7, "string"), (None, "null")])
def test_text_out_of_limits_is_refused_naming_the_field(live: Live, text: Any, reason: str) -> None:
    gid, (ann, _) = _game(live)
    r = _say(ann, gid, text)
    assert r.status_code == 422, r.text
    body = r.json()
    assert "text" in body["errors"], body
    assert reason in json.dumps(body["errors"]["text"]), body
    assert _texts(ann, live, gid) == []


def test_five_hundred_characters_after_trimming_are_accepted(live: Live) -> None:
    gid, (ann, _) = _game(live)
    assert _say(ann, gid, "  " + "é" * 500 + "  ").status_code == 201
    assert _texts(ann, live, gid) == ["é" * 500]


def test_only_seated_players_post(live: Live) -> None:
    gid, (ann, _) = _game(live)
    stranger = live.player("stranger")
    r = _say(stranger, gid, "hello")
    assert r.status_code == 403 and r.json()["type"].endswith("/forbidden")
    import requests
    assert requests.post(f"{live.url}/v1/games/{gid}/chat", json={"text": "hi"}, timeout=10).status_code == 401
    assert _say(ann, str(uuid.uuid4()), "hello").status_code == 404
    assert _texts(ann, live, gid) == []


def test_spectators_read_a_public_games_chat_but_not_an_unlisted_ones(live: Live) -> None:
    gid, (ann, _) = _game(live)
    _say(ann, gid, "watch this")
    assert _texts(live.player("watcher"), live, gid) == ["watch this"]
    assert _texts(None, live, gid) == ["watch this"]
    hidden, (eve, fay) = _game(live, visibility="unlisted")
    _say(eve, hidden, "just us")
    assert _texts(fay, live, hidden) == ["just us"]
    r = live.player("nosy").get(f"/v1/games/{hidden}/chat")
    assert r.status_code == 404
    code = eve.get(f"/v1/games/{hidden}/invite_code").json()["invite_code"]
    r = live.player("friend").get(f"/v1/games/{hidden}/chat", params={"invite_code": code})
    assert r.status_code == 200 and [m["text"] for m in r.json()["messages"]] == ["just us"]


def test_a_muted_players_messages_are_not_shown_to_who_muted_them(live: Live) -> None:
    gid, (ann, bob, cy) = _game(live, seats=3)
    r = ann.post("/v1/me/mutes", {"player_id": bob.id})
    assert r.status_code == 201, r.text
    assert [m["player"]["id"] for m in r.json()["mutes"]] == [bob.id]
    _say(bob, gid, "spam spam")
    _say(cy, gid, "hello")
    assert _texts(ann, live, gid) == ["hello"]
    assert _texts(cy, live, gid) == ["spam spam", "hello"]
    # muted again: no change; unmuted: shown again
    assert ann.post("/v1/me/mutes", {"player_id": bob.id}).status_code == 201
    assert len(ann.get("/v1/me/mutes").json()["mutes"]) == 1
    assert ann.delete(f"/v1/me/mutes/{bob.id}").status_code == 204
    assert ann.delete(f"/v1/me/mutes/{bob.id}").status_code == 404
    assert _texts(ann, live, gid) == ["spam spam", "hello"]
    assert ann.post("/v1/me/mutes", {"player_id": ann.id}).status_code == 422
    assert ann.post("/v1/me/mutes", {"player_id": str(uuid.uuid4())}).status_code == 404
    assert ann.post("/v1/me/mutes", {"player_id": "bob"}).status_code == 422


def test_a_report_is_recorded_for_the_operator_and_a_hide_takes_the_message_away(live: Live) -> None:
    gid, (ann, bob) = _game(live)
    n = _say(bob, gid, "rude words").json()["n"]
    _say(bob, gid, "sorry")
    r = ann.post(f"/v1/games/{gid}/chat/{n}/report", {"reason": "  insulting  "})
    assert r.status_code == 201, r.text
    assert r.json()["reason"] == "insulting" and r.json()["n"] == n
    assert ann.post(f"/v1/games/{gid}/chat/{n + 99}/report", {"reason": "x"}).status_code == 404
    assert ann.post(f"/v1/games/{gid}/chat/{n}/report", {"reason": ""}).status_code == 422
    db = Database(live.database_url, max_size=2, service_role=False)
    try:
        from events.chat import reports
        mine = [x for x in reports(db) if str(x.game_id) == gid]
        assert [(x.n, x.reason, str(x.reporter), x.text, x.hidden) for x in mine] == [
            (n, "insulting", ann.id, "rude words", False)]
        store = EventStore(db)
        assert chat.hide(store, uuid.UUID(gid), n, "abuse", "2026-01-01T00:00:00Z")
        assert chat.hide(store, uuid.UUID(gid), n, "abuse", "2026-01-01T00:00:00Z")  # once is enough
        assert not chat.hide(store, uuid.UUID(gid), n + 99, "abuse", "2026-01-01T00:00:00Z")
        # hidden for everyone, and the chat's log still holds every word, in a whole chain
        assert _texts(ann, live, gid) == _texts(bob, live, gid) == ["sorry"]
        log = store.read(stream_of(uuid.UUID(gid)))
        assert [e.type for e in log] == ["ChatMessagePosted", "ChatMessagePosted", "ChatMessageReported",
                                         "ChatMessageHidden"]
        assert store.verify(stream_of(uuid.UUID(gid))) is None
    finally:
        db.close()


def test_the_game_stream_carries_chat_when_asked_and_only_then(live: Live) -> None:
    gid, (ann, bob) = _game(live)
    first = _say(ann, gid, "before").json()["n"]
    plain = Stream(f"{live.url}/v1/games/{gid}/events/stream", bob.auth, {"max_seconds": 3}).start()
    talk = Stream(f"{live.url}/v1/games/{gid}/events/stream", bob.auth,
                  {"max_seconds": 10, "chat_after": 0}).start()
    sent = time.monotonic()
    _say(ann, gid, "<b>live</b>")
    got = talk._first(lambda m: m.get("event") == "chat" and "live" in m["data"], 5)
    assert got is not None and got["received"] - sent < 2.0
    chats = [m for m in talk.messages if m.get("event") == "chat"]
    assert [json.loads(m["data"])["text"] for m in chats] == ["before", "<b>live</b>"]
    assert json.loads(chats[0]["data"])["n"] == first
    assert all("id" not in m for m in chats)  # Last-Event-ID stays the game's version
    # an operator hides a message the stream has shown: the stream says so, at once
    db = Database(live.database_url, max_size=1, service_role=False)
    try:
        assert chat.hide(EventStore(db), uuid.UUID(gid), first, "test", "2026-01-01T00:00:00Z")
    finally:
        db.close()
    gone = talk._first(lambda m: m.get("event") == "chat_hidden", 5)
    assert gone is not None and json.loads(gone["data"]) == {"n": first} and "id" not in gone
    _say(ann, gid, "after")
    assert talk._first(lambda m: m.get("event") == "chat" and "after" in m["data"], 5) is not None
    # a stream opened later, from the start: the hidden message is neither sent nor unsent
    late = Stream(f"{live.url}/v1/games/{gid}/events/stream", bob.auth, {"max_seconds": 2, "chat_after": 0}).start()
    assert late.ended.wait(10)
    assert [(m["event"], json.loads(m["data"]).get("text")) for m in late.messages if m.get("event", "").startswith("chat")
            ] == [("chat", "<b>live</b>"), ("chat", "after")]
    assert plain.ended.wait(10)
    assert not any(m.get("event") == "chat" for m in plain.messages)


def test_a_muted_sender_is_not_on_the_muters_stream(live: Live) -> None:
    gid, (ann, bob, cy) = _game(live, seats=3)
    ann.post("/v1/me/mutes", {"player_id": bob.id})
    s = Stream(f"{live.url}/v1/games/{gid}/events/stream", ann.auth, {"max_seconds": 10, "chat_after": 0}).start()
    _say(bob, gid, "muted words")
    _say(cy, gid, "heard words")
    assert s._first(lambda m: m.get("event") == "chat" and "heard" in m["data"], 5) is not None
    assert [json.loads(m["data"])["text"] for m in s.messages if m.get("event") == "chat"] == ["heard words"]


def test_the_other_seated_players_get_a_chat_notification_with_only_the_handle_and_text(live: Live) -> None:
    gid, (ann, bob, cy) = _game(live, seats=3)
    cy.post("/v1/me/mutes", {"player_id": ann.id})
    handle = ann.get("/v1/me").json()["handle"]
    _say(ann, gid, "your move")

    def chats(p: Player) -> list[dict[str, Any]]:
        got = p.get("/v1/me/notifications", params={"after": 0}).json()["notifications"]
        return [n for n in got if n["kind"] == "chat"]

    told = chats(bob)
    assert len(told) == 1 and told[0]["game_id"] == gid and told[0]["seats"] == [1]
    assert told[0]["data"] == {"handle": handle, "text": "your move"}
    assert chats(ann) == [] and chats(cy) == []  # not the sender, not who muted the sender


def test_chat_is_rate_limited_per_player(db_factory: object) -> None:
    for server in serve(db_factory.new(), extra={"chat_rate": (0.001, 3.0)}):  # type: ignore[attr-defined]
        gid, (ann, bob) = _game(server)
        assert [_say(ann, gid, f"m{i}").status_code for i in range(3)] == [201, 201, 201]
        r = _say(ann, gid, "one too many")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert r.json()["type"].endswith("/rate-limited")
        assert _say(bob, gid, "my own budget").status_code == 201
        assert _texts(bob, server, gid) == ["m0", "m1", "m2", "my own budget"]


def test_a_retry_with_the_same_idempotency_key_answers_the_first_message(live: Live) -> None:
    gid, (ann, bob) = _game(live)
    key = {"Idempotency-Key": "say-once"}
    first = ann.post(f"/v1/games/{gid}/chat", {"text": "once"}, headers=key)
    again = ann.post(f"/v1/games/{gid}/chat", {"text": "  once "}, headers=key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert _texts(bob, live, gid) == ["once"]
    other = ann.post(f"/v1/games/{gid}/chat", {"text": "twice"}, headers=key)
    assert other.status_code == 422 and other.json()["type"].endswith("/idempotency-key-reused")
    told = [n for n in bob.get("/v1/me/notifications").json()["notifications"] if n["kind"] == "chat"]
    assert len(told) == 1
