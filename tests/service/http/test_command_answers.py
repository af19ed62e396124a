"""What a command's answer carries of the view (docs/performance.md, "The size of answers").

Without ``Prefer`` the answer is as it always was: the whole view. With ``Prefer:
return=minimal`` and ``If-Match`` it is a JSON Patch from the view at that version, which an
independent RFC 6902 implementation (``jsonpatch``) applies to the view held to give exactly the
view ``GET /view`` shows next, and which holds nothing but parts of that view (no card the
seat has not been shown). In a 4-seat Corte game such an answer is under 4 KB but for the
answer that ends a round (the round's reveal and the next deal are in its events). Without
``If-Match`` the minimal answer has no view at all."""
from __future__ import annotations

import random
from typing import Any

import jsonpatch
import orjson

from domain import bots
from tests.service.helpers import Live, Player, start_game

MINIMAL = {"Prefer": "return=minimal"}
KB4 = 4096


def _parts(doc: Any) -> set[bytes]:
    """Every value inside ``doc`` (itself included), as JSON text."""
    out = {orjson.dumps(doc)}
    for child in doc.values() if isinstance(doc, dict) else doc if isinstance(doc, list) else []:
        out |= _parts(child)
    return out


def _views(gid: str, players: list[Player]) -> dict[int, tuple[Player, dict[str, Any]]]:
    out = {}
    for p in players:
        v = p.get(f"/v1/games/{gid}/view").json()
        out[v["seat"]] = (p, v)
    return out


def test_a_minimal_answer_is_a_patch_to_the_view_held_under_4_kb_in_a_4_seat_corte_game(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=4)
    policy, rng = bots.policy("corte", "greedy"), random.Random(4)
    seated = _views(gid, players)
    held = {s: v for s, (_, v) in seated.items()}
    latest = held[0]
    sizes, round_ends, rounds_ended = [], [], 0
    while latest["status"] == "active" and (rounds_ended < 1 or len(sizes) < 40):
        assert len(sizes) + len(round_ends) < 600, "the game stalled"
        seat = latest["awaiting"][0]
        player = seated[seat][0]
        if held[seat]["version"] != latest["version"]:  # others moved since this seat last looked
            held[seat] = player.get(f"/v1/games/{gid}/view").json()
        view = held[seat]
        action = policy(view["table"], view["legal_actions"], rng, True)
        r = player.post(f"/v1/games/{gid}/commands", action,
                        headers={**MINIMAL, "If-Match": f'"{view["version"]}"'})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert r.headers["Preference-Applied"] == "return=minimal" and r.headers["ETag"] == f'"{answer["version"]}"'
        assert "view" not in answer and answer["view_patch"]
        new = jsonpatch.apply_patch(view, answer["view_patch"])
        shown = player.get(f"/v1/games/{gid}/view").json()
        assert new == shown  # nothing lost: the view held and the patch make the whole view
        parts = _parts(shown)  # and nothing more: every value in the patch is a part of the view
        assert all(orjson.dumps(op["value"]) in parts for op in answer["view_patch"] if "value" in op)
        ends = any(e["type"] == "RoundRevealed" for e in answer["events"])
        rounds_ended += ends
        (round_ends if ends else sizes).append(len(r.content))
        held[seat] = latest = new
    assert rounds_ended >= 1
    assert max(sizes) < KB4, sorted(sizes)[-5:]
    # the whole view alone is over 4 KB, so even the answer that ends a round is smaller than
    # the whole answer was (its events hold the round's reveal, the deal's commitment)
    assert all(n < KB4 + 2500 for n in round_ends), round_ends
    assert sum(sizes) / len(sizes) < 3000


def test_without_if_match_a_minimal_answer_has_no_view_and_without_prefer_the_whole_view(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=4)
    views = _views(gid, players)
    seat = views[0][1]["awaiting"][0]
    player, view = views[seat]
    r = player.post(f"/v1/games/{gid}/commands", view["legal_actions"][0], headers=MINIMAL)
    assert r.status_code == 200, r.text
    assert r.headers["Preference-Applied"] == "return=minimal" and len(r.content) < KB4
    assert set(r.json()) == {"version", "chain_head", "checkpoint", "events"}
    # a preference the server does not know is ignored, as RFC 7240 says: the whole view
    views = _views(gid, players)
    seat = views[0][1]["awaiting"][0]
    player, view = views[seat]
    r = player.post(f"/v1/games/{gid}/commands", view["legal_actions"][0],
                    headers={"Prefer": "respond-async, wait=5", "If-Match": f'"{view["version"]}"'})
    assert r.status_code == 200 and "Preference-Applied" not in r.headers
    assert r.json()["view"] == player.get(f"/v1/games/{gid}/view").json() and "view_patch" not in r.json()


def test_the_hot_answers_pass_their_json_through_as_marshmallow_would_dump_it(live: Live) -> None:
    from service.http.requests import passed_through
    from service.http.schemas.games import CommandOut, ViewOut

    gid, players = start_game(live, "corte", seats=4)
    seat, (player, view) = next((s, pv) for s, pv in _views(gid, players).items() if s in pv[1]["awaiting"])
    answer = player.post(f"/v1/games/{gid}/commands", view["legal_actions"][0]).json()
    for schema, data in ((ViewOut(), view), (CommandOut(), answer), (CommandOut(), {**answer, "seat": seat})):
        assert passed_through(schema, data) == schema.dump(data)
    assert "seat" not in passed_through(CommandOut(), {**answer, "seat": seat})  # only the schema's fields


def test_asked_with_proof_from_an_answer_carries_the_proof_the_proof_route_gives(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=4)
    views = _views(gid, players)
    player, view = views[views[0][1]["awaiting"][0]]
    bad = player.post(f"/v1/games/{gid}/commands?proof_from=two", view["legal_actions"][0], headers=MINIMAL)
    assert bad.status_code == 422 and bad.json()["errors"] == {"proof_from": ["not an integer"]}
    r = player.post(f"/v1/games/{gid}/commands?proof_from=2", view["legal_actions"][0], headers=MINIMAL)
    assert r.status_code == 200, r.text
    answer = r.json()
    asked = player.get(f"/v1/games/{gid}/proof/consistency?from=2&to={answer['version']}").json()
    assert asked["hashes"] and answer["consistency"] == {"size": 2, **asked}
    # from a size that is not below the answer's version there is nothing to prove
    views = _views(gid, players)
    player, view = views[views[0][1]["awaiting"][0]]
    r = player.post(f"/v1/games/{gid}/commands?proof_from={view['version'] + 9}", view["legal_actions"][0],
                    headers=MINIMAL)
    assert r.status_code == 200 and "consistency" not in r.json()
