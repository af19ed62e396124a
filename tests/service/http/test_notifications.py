"""One stream per player: notifications in the append's transaction, the account stream and
its long-poll, resumable, in order, gap-free, and never carrying a card."""
from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from service.tools.contract.conformance import SHORT
from tests.service.conftest import RULESETS
from tests.service.helpers import Live, Player, acting, serve, start_game
from tests.service.sse_client import Stream

# a card code anywhere in a text: 2-10, A, J, Q, K of a suit, or a joker
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])")


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    yield from serve(db_factory.new(), stream_heartbeat_seconds=0.5, recheck_seconds=60,  # type: ignore[attr-defined]
                     stream_max_seconds=20)


def _all(p: Player, after: int = 0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while True:
        page = p.get("/v1/me/notifications", params={"after": after, "limit": 500}).json()
        out += page["notifications"]
        if not page["notifications"]:
            return out
        after = page["next_after"]


def _stream(live: Live, p: Player, headers: dict[str, str] | None = None, **params: Any) -> Stream:
    return Stream(f"{live.url}/v1/me/stream", {**p.auth, **(headers or {})}, {"max_seconds": 10, **params}).start()


def _data(s: Stream) -> list[dict[str, Any]]:
    """The stream's messages that carry data (not the opening ``retry:``)."""
    return [m for m in s.messages if "data" in m]


def _play(gid: str, players: list[Player], commands: int) -> None:
    for _ in range(commands):
        try:
            p, v = acting(gid, players)
        except AssertionError:
            return
        actions = v["legal_actions"]
        action = next((a for a in actions if "call" not in a["type"].lower()), actions[0])
        assert p.post(f"/v1/games/{gid}/commands", action).status_code == 200


def test_the_deal_tells_every_seat_and_the_awaited_one_that_it_is_their_turn(live: Live) -> None:
    gid, players = start_game(live, "least-score")
    view = players[0].get(f"/v1/games/{gid}/view").json()
    for seat, p in enumerate(players):
        kinds = [(n["kind"], n["game_id"]) for n in _all(p)]
        assert ("game_started", gid) in kinds
        assert (("your_turn", gid) in kinds) == (seat in view["awaiting"])


def test_each_players_numbers_are_gap_free_and_in_order(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=3)
    _play(gid, players, 25)
    for p in players:
        seqs = [n["seq"] for n in _all(p)]
        assert seqs == list(range(1, len(seqs) + 1)) and seqs


def test_a_seat_with_only_a_snap_to_send_hears_can_react(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=3)
    reacting: list[int] = []
    for _ in range(60):  # play until a discard has opened a window
        _play(gid, players, 1)
        views = [p.get(f"/v1/games/{gid}/view").json() for p in players]
        # a claim on the open window (standing orders may be placed at any time: they are no reaction)
        reacting = [i for i, v in enumerate(views) if v["seat"] not in v["awaiting"]
                    and any("window_id" in a for a in v["legal_actions"])]
        if reacting:
            break
    assert reacting, "after discards some seat not awaited may snap"
    for seat in reacting:
        told = [n for n in _all(players[seat]) if n["kind"] == "can_react" and n["game_id"] == gid]
        assert told and told[-1]["data"]["window_id"] == views[seat]["table"]["window"]["id"]


def test_the_stream_opens_with_the_inbox_then_sends_news_as_it_happens(live: Live) -> None:
    gid, players = start_game(live, "pedro", seats=2)
    p, v = acting(gid, players)
    other = next(q for q in players if q is not p)
    s = _stream(live, p)
    assert s.status == 200 and s.content_type.startswith("text/event-stream")
    first = s.first_data()
    assert first["event"] == "inbox" and "id" not in first
    box = json.loads(first["data"])
    assert gid in [g["game_id"] for g in box["games"]]
    mine = next(g for g in box["games"] if g["game_id"] == gid)
    assert mine["seat"] == v["seat"] and mine["deadline"]["at"].endswith("Z")
    # the other seat's stream hears its turn when p has played (pedro: turns alternate)
    s2 = _stream(live, other)
    s2.first_data()  # its inbox: the news of the moves below come after it
    _play(gid, players, 3)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(m.get("event") == "your_turn" for m in s2.messages):
        time.sleep(0.02)
    assert any(m.get("event") == "your_turn" for m in s2.messages)


def test_a_stream_resumed_with_last_event_id_misses_nothing(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=3)
    watcher = players[1]
    s = _stream(live, watcher)
    start = json.loads(s.first_data()["data"])["seq"]  # a fresh stream goes on from its inbox
    # moves until the watcher has news: how many that takes depends on the deal (a power card
    # lengthens a turn, and six moves once told this seat nothing at all)
    for _ in range(40):
        if _all(watcher, after=start):
            break
        _play(gid, players, 1)
    # the news, however long it takes to come (a loaded Citus cluster took more than 5 s): the
    # resumed stream below is then checked against everything after the last id seen so far,
    # whatever this stream still receives
    deadline = time.monotonic() + 15
    while not any("id" in m for m in list(s.messages)) and time.monotonic() < deadline:
        time.sleep(0.02)
    seen = [int(m["id"]) for m in list(s.messages) if "id" in m]
    assert seen, "the stream carried notifications"
    _play(gid, players, 9)  # news after the last id this client saw: the resumed stream must carry it all
    again = _stream(live, watcher, headers={"Last-Event-ID": str(seen[-1])}, max_seconds=2)
    assert again.ended.wait(10)
    assert _data(again)[0]["event"] == "inbox"
    resumed = [int(m["id"]) for m in again.messages if "id" in m]
    everything = [n["seq"] for n in _all(watcher, after=start)]
    assert seen + resumed == everything == list(range(start + 1, start + 1 + len(everything)))


def test_the_long_poll_waits_for_the_next_notification(live: Live) -> None:
    gid, players = start_game(live, "cuatro-cartas", seats=2)
    p, v = acting(gid, players)
    other = next(q for q in players if q is not p)
    head = max([n["seq"] for n in _all(other)] or [0])
    import threading

    got: dict[str, Any] = {}

    def poll() -> None:
        t0 = time.monotonic()
        got["page"] = other.get("/v1/me/notifications", params={"after": head, "wait": 10}).json()
        got["seconds"] = time.monotonic() - t0

    t = threading.Thread(target=poll)
    t.start()
    time.sleep(0.5)
    for _ in range(40):  # play on until the other seat has news (its turn, or a window to react on)
        if not t.is_alive():
            break
        _play(gid, players, 1)
        time.sleep(0.05)
    t.join(15)
    assert got["page"]["notifications"] and all(n["seq"] > head for n in got["page"]["notifications"])
    assert got["seconds"] < 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_notification_names_a_card(live: Live, ruleset: str) -> None:
    # a short game (the conformance kit's options), played to its end: every kind of news
    # comes, the rounds' and the game's end included
    gid, players = start_game(live, ruleset, seats=3 if ruleset != "least-score" else 4, options=SHORT[ruleset])
    _play(gid, players, 300)
    for p in players:
        notes = _all(p)
        assert any(n["game_id"] == gid and n["kind"] != "game_started" for n in notes), "the game gave news"
        text = json.dumps(notes)
        assert not CARD.findall(text), CARD.findall(text)[:5]


def test_notifications_need_a_token_and_are_only_the_callers(live: Live) -> None:
    import requests

    assert requests.get(live.url + "/v1/me/notifications", timeout=10).status_code == 401
    gid, players = start_game(live, "pedro", seats=2)
    stranger = live.player("stranger")
    assert all(n["game_id"] != gid for n in _all(stranger))
