"""Through the game API (issue 5): a game played over HTTP is audited and verifies."""
from __future__ import annotations

import random
from typing import Any


from service.audit.verify import verify_export


def _player(client: Any, name: str) -> dict[str, str]:
    resp = client.post("/v1/players", json={"name": name})
    assert resp.status_code == 201, resp.get_json()
    return {"Authorization": f"Bearer {resp.get_json()['token']}"}


def test_own_seat_views_at_any_version_and_a_played_game_verifies(make_app: Any) -> None:
    client = make_app().test_client()
    alice, bob = _player(client, "alice"), _player(client, "bob")
    created = client.post("/v1/games", json={"ruleset": "least-score", "seats": 2, "take_seat": True},
                          headers=alice)
    assert created.status_code == 201, created.get_json()
    gid = created.get_json()["id"]
    assert client.post(f"/v1/games/{gid}/join", json={}, headers=bob).status_code == 200
    rng = random.Random(1)
    seen: dict[int, Any] = {}
    for _ in range(400):
        moved = False
        for seat, who in enumerate((alice, bob)):
            body = client.get(f"/v1/games/{gid}/view", headers=who).get_json()
            seen.setdefault(body["version"], {})[seat] = body
            actions = body.get("legal_actions") or []
            if body.get("status") == "finished" or not actions:
                continue
            resp = client.post(f"/v1/games/{gid}/commands", json=actions[rng.randrange(len(actions))], headers=who)
            assert resp.status_code in (200, 201), resp.get_json()
            moved = True
            break
        if not moved:
            break
    # own seat, at the current version, while the round is on: allowed; the other seat: refused
    version = max(seen)
    for seat, who in enumerate((alice, bob)):
        if seat not in seen[version]:
            continue
        own = client.get(f"/v1/games/{gid}/audit/view?seat={seat}&version={version}", headers=who)
        assert own.status_code == 200
        shown = seen[version][seat]
        assert own.get_json()["view"] == shown["table"]
        assert own.get_json()["chain_head"] == shown["chain_head"]
        other = client.get(f"/v1/games/{gid}/audit/view?seat={1 - seat}&version={version}", headers=who)
        finished = shown["status"] == "finished"
        assert other.status_code == (200 if finished else 403)
    audit = client.get(f"/v1/games/{gid}/audit")
    if audit.status_code == 200:
        assert verify_export(audit.get_json()).ok, audit.get_json()["verification"]["failures"][:3]
