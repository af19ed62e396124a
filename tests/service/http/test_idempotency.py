"""Exact idempotency: a key belongs to its player, and a duplicate in flight gets the first
answer (a 200 replay, never a 409)."""
from __future__ import annotations

import threading
from typing import Any

from tests.service.helpers import Live, acting, start_game


def test_the_same_key_twice_at_the_same_moment_gets_the_same_answer_twice(live: Live) -> None:
    for attempt in range(12):
        gid, players = start_game(live, "pedro", seats=2)
        p, v = acting(gid, players)
        action = v["legal_actions"][0]
        key = {"Idempotency-Key": f"twice-{attempt}"}
        answers: list[Any] = [None, None]
        go = threading.Barrier(2)

        def send(i: int) -> None:
            go.wait()
            answers[i] = p.post(f"/v1/games/{gid}/commands", action, headers=key)

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert [a.status_code for a in answers] == [200, 200], [a.text[:200] for a in answers]
        assert answers[0].json() == answers[1].json()
        # appended once: the game is at the version both answers name
        assert p.get(f"/v1/games/{gid}").json()["version"] == answers[0].json()["version"]


def test_a_key_of_one_player_cannot_use_up_another_players_key(live: Live) -> None:
    gid, players = start_game(live, "least-score", seats=2)
    first, v = acting(gid, players)
    other = next(q for q in players if q is not first)
    assert first.post(f"/v1/games/{gid}/commands", v["legal_actions"][0],
                      headers={"Idempotency-Key": "shared-1"}).status_code == 200
    mover, v2 = acting(gid, players)
    assert mover is other
    r = other.post(f"/v1/games/{gid}/commands", v2["legal_actions"][0], headers={"Idempotency-Key": "shared-1"})
    assert r.status_code == 200, r.text  # not the rival's replay, not 422
    assert r.json()["version"] > v2["version"]


def test_a_retry_after_the_game_moved_on_replays_the_first_answer(live: Live) -> None:
    gid, players = start_game(live, "pedro", seats=2)
    p, v = acting(gid, players)
    key = {"Idempotency-Key": "late-retry"}
    first = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers=key)
    assert first.status_code == 200
    for _ in range(3):  # the game moves on
        q, w = acting(gid, players)
        assert q.post(f"/v1/games/{gid}/commands", w["legal_actions"][-1]).status_code == 200
    again = p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0], headers=key)
    assert again.status_code == 200 and again.json() == first.json()
    other = p.post(f"/v1/games/{gid}/commands", {"type": "Draw", "source": "stock"}, headers=key)
    assert other.status_code == 422 and other.json()["type"].endswith("/idempotency-key-reused")
