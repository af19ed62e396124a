"""The game index and who sits where are projections of the log: after resignations,
votes, invitations, departures, cancellations, vacations and rematches, a rebuild from the
events alone gives back every row."""
from __future__ import annotations

from events import game_index
from service.usecases.sweep import sweep
from service.adapters.repository import rebuild_index
from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import HOUR, Clock, api_of, delete, open_game, started


def test_the_index_is_rebuilt_exactly_after_every_kind_of_service_event(live: Live, clock: Clock) -> None:
    resigned, (ann, bob) = started(live, "corte")
    ann.post(f"/v1/games/{resigned}/resign")
    bob.post(f"/v1/games/{resigned}/rematch")
    voted, (cat, dan) = started(live, "least-score", time_control={"turn_seconds": HOUR})
    cat.post("/v1/me/vacation", {"days": 1})
    for _ in range(8):
        clock.advance(HOUR + 1)
        sweep(api_of(live))
    for p in (cat, dan):
        p.post(f"/v1/games/{voted}/votes", {"kind": "replace_with_bot"})
    left, (eve, fay, gus) = open_game(live, "pedro", 3, visibility="unlisted")
    eve.post(f"/v1/games/{left}/invitations", {"player_id": fay.id})
    eve.post(f"/v1/games/{left}/invitations", {"player_id": gus.id})
    gus.post(f"/v1/games/{left}/leave")
    fay.post(f"/v1/games/{left}/join", {})
    cancelled, (hal, _) = open_game(live, "corte", 2)
    delete(hal, f"/v1/games/{cancelled}")
    api = api_of(live)
    rows, members = game_index.all_rows(api.db), game_index.all_members(api.db)
    assert {r.status for r in rows} >= {"finished", "open", "cancelled"} and len(rows) == 5
    rebuild_index(api.store, api.admin())
    assert game_index.all_rows(api.db) == rows and game_index.all_members(api.db) == members
