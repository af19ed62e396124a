"""Every problem type resolves to a page of this server, and every 4xx says what to fix."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin

import requests

from service.http.problems import markdown
from service.model.problems import PROBLEMS
from tests.service.helpers import Live, acting, start_game

DOCS = Path(__file__).resolve().parents[3] / "docs" / "problems.md"


def test_docs_problems_md_lists_every_problem_type_as_the_table_says() -> None:
    assert DOCS.read_text() == markdown(), "regenerate: python -c 'from service.http.problems import markdown; ...'"
    for slug in PROBLEMS:
        assert f"## `{slug}`" in DOCS.read_text()


def test_each_problem_type_uri_resolves_to_its_page_on_the_server(live: Live) -> None:
    r = requests.get(live.url + "/v1/games/00000000-0000-0000-0000-000000000000", timeout=10)
    assert r.status_code == 404 and r.json()["type"] == "/problems/not-found"
    page = requests.get(urljoin(r.url, r.json()["type"]), timeout=10)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    assert "What to do" in page.text
    for slug, kind in PROBLEMS.items():
        page = requests.get(f"{live.url}/problems/{slug}", timeout=10)
        assert page.status_code == 200 and kind.title.split(" ")[0] in page.text, slug
    index = requests.get(live.url + "/problems", timeout=10)
    assert all(f"/problems/{slug}" in index.text for slug in PROBLEMS)
    assert requests.get(live.url + "/problems/no-such-thing", timeout=10).status_code == 404


def test_a_misspelled_enum_value_gets_the_allowed_values(live: Live) -> None:
    p = live.player("speller")
    r = p.post("/v1/games", {"ruleset": "pedro", "seats": 2, "options": {"common.memory": "stric"}})
    assert r.status_code == 422 and r.json()["type"] == "/problems/invalid-options"
    assert '"notebook"' in r.json()["errors"]["common.memory"][0] and '"strict"' in r.json()["errors"]["common.memory"][0]
    r = p.post("/v1/games", {"ruleset": "corte", "seats": 2, "options": {"lock_callr": True}})  # a misspelled key
    assert r.status_code == 422 and "lock_caller" in r.json()["errors"]["lock_callr"][0]
    r = p.post("/v1/games", {"ruleset": "pedr", "seats": 2})
    assert r.status_code == 422 and "pedro" in r.json()["errors"]["ruleset"][0]
    r = p.get("/v1/games?status=actve")
    assert r.status_code == 422 and "active" in str(r.json()["errors"]["status"])
    for path in ("/v1/games", "/v1/me/games"):  # a list filter too: not an empty list
        r = p.get(path, params={"ruleset": "cort"})
        assert r.status_code == 422 and all(name in str(r.json()["errors"]["ruleset"])
                                            for name in ("corte", "cuatro-cartas", "pedro", "least-score"))
    for body, field, allowed in (({"ruleset": "corte", "seats": 2, "visibility": "privat"}, "visibility",
                                  ("public", "unlisted")),):
        r = p.post("/v1/games", body)
        assert r.status_code == 422 and all(a in str(r.json()["errors"][field]) for a in allowed)
    r = p.post("/v1/games", {"ruleset": "pedro", "seats": 2, "options": {"common.decks": "2"}})
    assert r.status_code == 422 and '"auto", 1, 2' in r.json()["errors"]["common.decks"][0]


def test_a_malformed_command_names_what_to_fix(live: Live) -> None:
    gid, players = start_game(live, "pedro", seats=2)
    p = players[0]
    r = p.post(f"/v1/games/{gid}/commands", {"type": "Drow", "source": "stock"})
    assert r.status_code == 422 and r.json()["type"] == "/problems/invalid-command"
    assert "Draw" in r.json()["detail"], r.json()
    r = p.post(f"/v1/games/{gid}/commands", {"type": "Draw", "source": "stok"})
    assert r.status_code == 422 and "source" in r.json()["detail"] and "stock" in r.json()["detail"], r.json()
    r = p.post(f"/v1/games/{gid}/commands", {"type": "TurnTimedOut", "seat": 0, "turn_no": 1})
    assert r.status_code == 422 and "system command" in r.json()["detail"], r.json()


def test_a_command_at_the_wrong_moment_of_the_turn_is_refused_in_the_words_of_the_rules(live: Live) -> None:
    """Not "expected HOLDING, the turn is in AWAIT_ACTION": what the command needs and what
    the turn waits for, as docs/rules/ say them."""
    gid, players = start_game(live, "corte", seats=2)
    while True:  # the initial peek: each seat chooses
        p, v = acting(gid, players)
        if v["legal_actions"][0]["type"] != "ChoosePeek":
            break
        assert p.post(f"/v1/games/{gid}/commands", v["legal_actions"][0]).status_code == 200
    r = p.post(f"/v1/games/{gid}/commands", {"type": "DiscardDrawn"})
    assert r.status_code == 409 and r.json()["type"] == "/problems/wrong-phase", r.json()
    assert r.json()["detail"] == ("this command is played with the card you drew in hand; "
                                  "you hold no drawn card: draw first")
    assert p.post(f"/v1/games/{gid}/commands", {"type": "Draw", "source": "stock"}).status_code == 200
    r = p.post(f"/v1/games/{gid}/commands", {"type": "Draw", "source": "stock"})
    assert r.status_code == 409 and r.json()["detail"] == (
        "this command is played at the start of your turn, before you draw; you hold the card you drew: "
        "discard it or replace one of your cards with it first")


def test_an_unknown_command_type_offers_the_players_commands_and_never_a_system_command(live: Live) -> None:
    gid, players = start_game(live, "corte", seats=2)
    r = players[0].post(f"/v1/games/{gid}/commands", {"type": "NoSuchCommand"})
    assert r.status_code == 422 and "SnapOwn" in r.json()["detail"], r.json()
    assert "TurnTimedOut" not in r.json()["detail"] and "FinalWindowExpired" not in r.json()["detail"]
