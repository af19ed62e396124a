"""The SDK against a live ``facedown serve``: every call, typed answers, problems, retries."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from facedown_client import Client, ProblemError, View, commands, play_seats, random_policy
from tests.sdk.conftest import Served
from tests.service.helpers import QUICK_POLL


def _table(served: Served, ruleset: str = "least-score", seats: int = 2) -> tuple[str, list[Client]]:
    clients = [Client(served.url) for _ in range(seats)]
    for i, c in enumerate(clients):
        c.register(f"sdk-{ruleset}-{i}")
    game = clients[0].create_game(ruleset, seats, {}, name="sdk test")
    for c in clients[1:]:
        c.join(game.id)
    return game.id, clients


def test_send_with_the_view_held_gets_a_patch_and_gives_the_whole_new_view(served: Served) -> None:
    gid, clients = _table(served, "corte", seats=4)
    answers: list[tuple[str | None, int]] = []
    for c in clients:
        c.on_response = lambda r: answers.append((r.headers.get("Preference-Applied"), len(r.content)))
    for _ in range(6):
        view = next(v for v in (c.view(gid) for c in clients) if v.my_turn)
        client = clients[view.seat]
        answers.clear()
        result = client.send(gid, view.legal_actions[0], held=view)
        assert answers[0][0] == "return=minimal"  # the command's answer was the minimal one
        # its checkpoint was checked with the proof the answer carried: no request for one
        assert len(answers) == 1
        assert result.view.raw == client.view(gid).raw and result.view.version == result.version
        assert view.raw["version"] == view.version  # the held view was left as it was
    with pytest.raises(ValueError):
        client.send(gid, {"type": "Pass"}, held=view, if_match=view.version + 1)


def test_register_create_join_view_and_send_give_typed_answers(served: Served) -> None:
    gid, (ann, bob) = _table(served)
    game = ann.game(gid)
    assert game.status == "active" and game.your_seat == 0 and [s.name for s in game.seats] == ["sdk-least-score-0",
                                                                                                "sdk-least-score-1"]
    view = next(v for v in (ann.view(gid), bob.view(gid)) if v.my_turn)
    assert isinstance(view, View) and view.table is not None and view.table.phase == "turns"
    me = view.table.me()
    assert me is not None and me.card_count == 5 and all(c.card for c in me.cards)
    typed = commands.parse("least-score", view.legal_actions[0])
    assert isinstance(typed, commands.LeastScorePlay) and typed.to_json() == view.legal_actions[0]
    client = ann if view.seat == 0 else bob
    result = client.send(gid, typed)
    assert result.version > view.version and result.events and result.view.version == result.version
    assert any(r["name"] == "least-score" for r in ann.rulesets())
    assert [g.id for g in ann.my_games()] == [gid]
    more = [ann.create_game("pedro", 2).id for _ in range(4)]  # then every page, not the first
    listed = [g.id for g in ann.my_games(limit=2)]
    assert sorted(listed) == sorted([gid, *more]) and len(listed) == 5
    assert [g.id for g in ann.my_games(limit=2, status="open")] and all(
        g.status == "open" for g in ann.my_games(limit=2, status="open"))
    assert [g.id for g in ann.my_games(may_act=True)] == ([gid] if ann.view(gid).legal_actions else [])


def test_a_bot_registers_as_one_and_the_leaderboard_pages_best_first(served: Served) -> None:
    gid, (ann, bob) = _table(served, "corte")
    bob.request("POST", f"/v1/games/{gid}/resign")
    robo = Client(served.url)
    assert robo.register("sdk-robo", bot=True).id
    with_bot = ann.create_game("corte", 2)
    robo.join(with_bot.id)
    shown = ann.game(with_bot.id).raw
    assert shown["rated"] is False and [s["bot"] for s in shown["seats"]] == [False, True]
    page = ann.ratings("corte", limit=1)
    first = page["ratings"][0]
    assert first["player"]["name"] == "sdk-corte-0" and page["next_cursor"]
    rest = ann.ratings("corte", cursor=page["next_cursor"])
    assert [e["player"]["name"] for e in rest["ratings"]] == ["sdk-corte-1"] and rest["next_cursor"] is None


def test_a_problem_is_an_exception_with_status_type_and_detail(served: Served) -> None:
    gid, (ann, bob) = _table(served)
    waiting = bob if ann.view(gid).my_turn else ann
    with pytest.raises(ProblemError) as info:
        waiting.send(gid, {"type": "Declare"})
    assert info.value.status == 409 and info.value.type == "/problems/not-your-turn" and info.value.detail
    assert info.value.slug == "not-your-turn" and info.value.legal_actions == []
    with pytest.raises(ProblemError) as info:
        ann.create_game("least-score", 2, {"common.memory": "stric"})
    assert info.value.status == 422 and "notebook" in str(info.value.body["errors"])


def test_events_iterate_by_long_poll_and_by_stream_to_the_end_of_the_game(served: Served) -> None:
    gid, clients = _table(served, "pedro")
    play_seats(clients, gid, random_policy, seed=3)
    polled = list(clients[0].events(gid, wait=1))
    streamed = list(clients[0].events(gid, stream=True))
    assert polled and [e.version for e in polled] == [e.version for e in streamed]
    assert polled[-1].type == "SecretRevealed" and clients[0].game(gid).status == "finished"
    assert list(clients[0].events(gid, after=polled[-1].version, follow=False)) == []


def test_notifications_iterate_by_long_poll_and_the_stream_opens_with_the_inbox(served: Served) -> None:
    gid, (ann, bob) = _table(served, "pedro")
    waiting = ann if ann.view(gid).my_turn else bob
    polled = waiting.notifications(wait=1)
    first = next(polled)
    assert (first.seq, first.kind, first.game_id) == (1, "game_started", gid) and first.at and first.at.endswith("Z")
    second = next(polled)  # (a third would wait: the iterator long-polls for ever)
    assert (second.seq, second.kind, second.game_id) == (2, "your_turn", gid)
    streamed = waiting.notifications(stream=True)
    inbox = next(streamed)
    assert inbox.kind == "inbox" and [g["game_id"] for g in inbox.data["games"]] == [gid]
    waiting.send(gid, waiting.view(gid).legal_actions[0])  # news: the stream goes on with it
    news = next(streamed)
    assert news.kind != "inbox" and news.seq > inbox.seq and news.game_id == gid


class _Flaky(BaseHTTPRequestHandler):
    """Answers 429 (Retry-After: 0) then 503, then forwards nothing but a fixed 201."""

    calls: list[tuple[str, str | None]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.calls.append((self.path, self.headers.get("Idempotency-Key")))
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        n = len(self.calls)
        if n <= 2:
            self.send_response(429 if n == 1 else 503)
            self.send_header("Retry-After", "0")
            self.send_header("Content-Type", "application/problem+json")
            body = b'{"type":"/problems/rate-limited","title":"t","status":429,"detail":"slow down"}'
        else:
            self.send_response(201)
            self.send_header("Content-Type", "application/json")
            body = b'{"id":"i","name":"ann","token":"t"}'
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def flaky() -> Iterator[str]:
    _Flaky.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": QUICK_POLL}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_429_and_503_are_retried_with_the_same_idempotency_key(flaky: str) -> None:
    player = Client(flaky).register("ann")
    assert player.token == "t" and len(_Flaky.calls) == 3
    keys = {key for _path, key in _Flaky.calls}
    assert len(keys) == 1 and None not in keys


class _CutOff(BaseHTTPRequestHandler):
    """Cuts its first answer off in the middle of the body (a server killed while answering),
    then answers in full."""

    calls: list[str | None] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.calls.append(self.headers.get("Idempotency-Key"))
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = b'{"id":"i","name":"ann","token":"t"}'
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if len(self.calls) == 1:
            self.wfile.write(body[:10])
            self.close_connection = True
            return
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_an_answer_cut_off_mid_body_is_retried_with_the_same_idempotency_key() -> None:
    _CutOff.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _CutOff)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": QUICK_POLL}, daemon=True).start()
    try:
        player = Client(f"http://127.0.0.1:{server.server_port}").register("ann")
    finally:
        server.shutdown()
    assert player.token == "t" and len(_CutOff.calls) == 2
    assert len(set(_CutOff.calls)) == 1 and None not in _CutOff.calls


def test_a_connection_error_is_retried_then_raised(served: Served) -> None:
    from facedown_client import FacedownError
    from events.ports import free_port

    with pytest.raises(FacedownError):
        Client(f"http://127.0.0.1:{free_port()}", retries=1).rulesets()
