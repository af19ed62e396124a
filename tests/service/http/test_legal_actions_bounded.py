"""Through the API: a Pedro seat that grows to 18 cards by deliberate failed claims (14 of them)
still gets a view and a 409 answer of a few kilobytes (revision 3 of the rules listed 2.36
million Keep commands there: 247 MB); an entry of legal_actions sent as it stands, choices and
all, is accepted, and the log keeps the command without them."""
from __future__ import annotations

import psycopg

from tests.service.helpers import Live, Player, start_game

KB16 = 16_000


def _grow(live: Live, cards: int) -> tuple[str, Player]:
    """A two-seat Pedro game in which seat 0 claims all its cards identical each turn (a claim
    that all but surely fails, and then adds the drawn card), until it holds ``cards`` cards
    and a card drawn from the stock. Every command goes through the API."""
    gid, players = start_game(live, "pedro", seats=2)
    by_seat = {p.get(f"/v1/games/{gid}/view").json()["seat"]: p for p in players}
    for _ in range(400):
        game = players[0].get(f"/v1/games/{gid}").json()
        seat = game["awaiting"][0]
        view = by_seat[seat].get(f"/v1/games/{gid}/view").json()
        mine = [c for c in view["table"]["players"][seat]["cards"] if not c["empty"]]
        step = view["table"]["step"]
        if seat == 0 and step == "holding" and len(mine) >= cards and view["table"]["held"]["source"] == "stock":
            return gid, by_seat[0]
        first = next(a for a in view["legal_actions"] if a["type"] not in ("PeekBottom", "CallPedro"))
        if seat == 0 and step == "holding":
            keep = next(a for a in view["legal_actions"] if a["type"] == "Keep")
            first = {**keep, "also_discard": keep["choices"]["also_discard"]["subset_of"]}
            del first["choices"]
        r = by_seat[seat].post(f"/v1/games/{gid}/commands", first)
        assert r.status_code == 200, r.text
    raise AssertionError(f"seat 0 did not reach {cards} cards")


def test_an_18_card_pedro_seat_gets_a_view_and_a_409_under_16_kb_and_an_entry_is_sent_as_it_stands(
        live: Live) -> None:
    gid, grower = _grow(live, 18)
    r = grower.get(f"/v1/games/{gid}/view")
    assert len(r.content) < KB16, len(r.content)
    actions = r.json()["legal_actions"]
    assert [a["type"] for a in actions] == ["Keep"] * 18 + ["Release"]
    assert all(len(a["choices"]["also_discard"]["subset_of"]) == 17 for a in actions[:-1])
    refused = grower.post(f"/v1/games/{gid}/commands", {"type": "Draw", "source": "stock"})
    assert refused.status_code == 409 and len(refused.content) < KB16, len(refused.content)
    assert refused.json()["legal_actions"] == actions
    # the entry as it stands: its own values (a plain Keep of A), its choices left aside
    sent = grower.post(f"/v1/games/{gid}/commands", actions[0])
    assert sent.status_code == 200, sent.text
    assert [e["type"] for e in sent.json()["events"]][:1] == ["CardKept"]
    with psycopg.connect(live.database_url) as conn:
        (stored,) = conn.execute("SELECT metadata->'command' FROM events WHERE stream_id = %s "
                                 "ORDER BY version DESC LIMIT 1", (gid,)).fetchone() or (None,)
    assert stored == {"type": "Keep", "replace": "A", "also_discard": []}
