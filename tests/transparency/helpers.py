"""Games played over the test client, for the transparency tests."""
from __future__ import annotations

from typing import Any


def player(client: Any, name: str) -> dict[str, str]:
    resp = client.post("/v1/players", json={"name": name})
    assert resp.status_code == 201, resp.get_json()
    return {"Authorization": f"Bearer {resp.get_json()['token']}"}


def started_game(client: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    """A two-seat least-score game with both seats taken: (id, alice's headers, bob's)."""
    alice, bob = player(client, "alice"), player(client, "bob")
    created = client.post("/v1/games", json={"ruleset": "least-score", "seats": 2, "take_seat": True}, headers=alice)
    assert created.status_code == 201, created.get_json()
    gid = created.get_json()["id"]
    assert client.post(f"/v1/games/{gid}/join", json={}, headers=bob).status_code == 200
    return gid, alice, bob


def move(client: Any, gid: str, seats: tuple[dict[str, str], ...]) -> dict[str, Any] | None:
    """One legal command of the first seat that has one; its answer (None: nobody may move)."""
    for who in seats:
        view = client.get(f"/v1/games/{gid}/view", headers=who).get_json()
        actions = view.get("legal_actions") or []
        if view.get("status") == "active" and actions:
            resp = client.post(f"/v1/games/{gid}/commands", json=actions[0], headers=who)
            assert resp.status_code in (200, 201), resp.get_json()
            return resp.get_json()  # type: ignore[no-any-return]
    return None


def finished_game(client: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    """A game played a few moves, then ended by bob's resignation."""
    gid, alice, bob = started_game(client)
    for _ in range(3):
        move(client, gid, (alice, bob))
    resp = client.post(f"/v1/games/{gid}/resign", json={}, headers=bob)
    assert resp.status_code == 200, resp.get_json()
    assert client.get(f"/v1/games/{gid}", headers=alice).get_json()["status"] == "finished"
    return gid, alice, bob
