"""Per-game time control: each game's own clock, fixed when it is opened, decides its
timeouts; the service's settings are only the defaults and the bounds; a game may have
no clock at all; every summary, list item and view shows each awaited seat's deadline."""
from __future__ import annotations

from datetime import timedelta

import pytest

from service.usecases.sweep import sweep
from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import Clock, HOUR, api_of, at, started


def test_a_games_own_clock_decides_its_timeouts(live: Live, clock: Clock) -> None:
    quick, qp = started(live, "least-score", time_control={"turn_seconds": 2 * HOUR})
    slow, sp = started(live, "least-score", time_control={"turn_seconds": 5 * HOUR})
    before = {g: p[0].get(f"/v1/games/{g}").json()["version"] for g, p in ((quick, qp), (slow, sp))}
    clock.advance(2 * HOUR + 1)
    assert sweep(api_of(live)).games_due == 1
    assert qp[0].get(f"/v1/games/{quick}").json()["version"] > before[quick]
    assert sp[0].get(f"/v1/games/{slow}").json()["version"] == before[slow]
    clock.advance(3 * HOUR - 2)  # 5 h less a second: still inside the slow game's turn
    sweep(api_of(live))
    assert sp[0].get(f"/v1/games/{slow}").json()["version"] == before[slow]
    clock.advance(2)
    sweep(api_of(live))
    assert sp[0].get(f"/v1/games/{slow}").json()["version"] > before[slow]


def test_the_defaults_are_the_services_and_the_game_keeps_them(live: Live, clock: Clock) -> None:
    gid, players = started(live, "pedro")
    game = players[0].get(f"/v1/games/{gid}").json()
    assert game["time_control"] == {"turn_seconds": int(HOUR), "final_window_seconds": HOUR // 2}
    assert at(game["deadline"]["at"]) == clock.now + timedelta(seconds=HOUR)


def test_a_game_without_a_clock_never_times_out(live: Live, clock: Clock) -> None:
    gid, players = started(live, "corte", time_control=None)
    view = players[0].get(f"/v1/games/{gid}/view").json()
    assert view["deadline"] is None and players[0].get(f"/v1/games/{gid}").json()["time_control"] is None
    clock.advance(400 * 86400)
    assert sweep(api_of(live)).games_due == 0
    assert players[0].get(f"/v1/games/{gid}/view").json()["version"] == view["version"]


@pytest.mark.parametrize("control", [{"turn_seconds": 60}, {"final_window_seconds": 31 * 86400},
                                     {"turn_seconds": "3600"}, {"turn_seconds": 3600, "nope": 1}])
def test_a_time_control_out_of_bounds_or_malformed_is_refused(live: Live, control: dict[str, object]) -> None:
    p = live.player("bounds")
    r = p.post("/v1/games", {"ruleset": "corte", "seats": 2, "time_control": control})
    assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json"


def test_every_summary_list_item_and_view_shows_each_awaited_seats_deadline(live: Live, clock: Clock) -> None:
    gid, players = started(live, "cuatro-cartas", seats=3, time_control={"turn_seconds": 4 * HOUR})
    due = (clock.now + timedelta(hours=4)).isoformat().replace("+00:00", "Z")
    summary = players[0].get(f"/v1/games/{gid}").json()["deadline"]
    view = players[1].get(f"/v1/games/{gid}/view").json()["deadline"]
    listed = next(g for g in players[2].get("/v1/me/games").json()["games"] if g["id"] == gid)["deadline"]
    public = next(g for g in players[2].get("/v1/games").json()["games"] if g["id"] == gid)["deadline"]
    assert summary == view == listed == public
    assert [(s["seat"], s["at"]) for s in summary["per_seat"]] == [(0, due), (1, due), (2, due)]
