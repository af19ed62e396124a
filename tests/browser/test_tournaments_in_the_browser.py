"""Tournaments through the page (docs/web-client.md, docs/tournaments.md): one created from the
lobby's form, found in the lobby by another player, joined and left and joined again with the
page's buttons (and by two more players through the API, one of them in Spanish through the
page), refused a start with too few players in words, started by its creator; then its page
shows round 1's tables (each a link to its game, a duplicate board's other table not one while
it is played), the standings and the board's commitment; a table's game leads back to it; when
both tables end, the seed is revealed beside the commitment and round 2 is formed. The page in
Spanish says no English, and the pseudo-locale finds no text outside the catalogs."""
from __future__ import annotations

import time
from typing import Any

import requests

from tests.browser.driver import Seat, Table, post_as
from tests.browser.test_languages import english_phrases, no_english, not_from_a_catalog


def _tournament(seat: Seat, tid: str, query: str = "") -> None:
    """Open the tournament's page (read again if it is the one shown) and wait until it is drawn."""
    url = f"{seat.table.url}/{query}#/tournament/{tid}"
    if seat.page.url == url:
        seat.page.reload()
    else:
        seat.page.goto(url)
    seat.page.wait_for_selector(f"#tournament[data-tournament='{tid}'][aria-busy=false] #t-status")


def _players(seat: Seat) -> list[str]:
    return seat.page.eval_on_selector_all("#t-players li", "els => els.map(e => e.dataset.player)")


def _create_from_the_lobby(ann: Seat) -> str:
    p = ann.page
    p.click("nav a[href='#/lobby']")
    p.wait_for_selector(".lobby[aria-busy=false]")
    assert p.inner_text("#tournaments") == ann.words["tourney.none_listed"]  # the empty list says what to do
    p.fill("#tn-name", "Copa Friday")
    p.select_option("#tn-ruleset", "pedro")
    p.select_option("#tn-format", "swiss")
    p.fill("#tn-seats", "2")
    p.fill("#tn-rounds", "2")
    p.fill("#tn-max", "6")
    p.check("#tn-duplicate")
    p.fill("#tn-hours", "48")
    p.click("#new-tournament .options-box summary")
    p.fill("#new-tournament [name='rounds']", "1")  # the game's own option "rounds", apart from the tournament's
    ann.axe("the lobby with tournaments")
    p.click("#create-tournament")
    p.wait_for_selector("#tournament[aria-busy=false] #t-status")
    return p.evaluate("() => document.querySelector('#tournament').dataset.tournament")


def test_a_tournament_is_created_joined_left_started_and_followed_through_the_page(table: Table) -> None:
    ann, bob = table.seat("Ann Cup"), table.seat("Bob Cup")
    tid = _create_from_the_lobby(ann)
    made = ann.api(f"/v1/tournaments/{tid}")
    assert (made["name"], made["ruleset"], made["format"], made["seats_per_table"], made["round_count"],
            made["max_players"], made["duplicate"], made["options"]["rounds"], made["time_control"]["turn_seconds"]) == (
        "Copa Friday", "pedro", "swiss", 2, 2, 6, True, 1, 48 * 3600)
    p = ann.page
    assert p.get_attribute("#tournament", "data-status") == "open"
    assert _players(ann) == [made["creator"]]
    assert p.inner_text("#t-rounds") == ann.words["tourney.no_rounds"]
    assert p.inner_text("#t-standings") == ann.words["tourney.no_standings"]
    # a start with one player: the problem in words
    p.click("#t-start")
    p.wait_for_selector("#toast:not([hidden])")
    assert p.inner_text("#toast") == ann.words["problem.too-few-players"]
    refused = [e for e in table.console_errors if "409" in e[1]]  # the browser logs the refusal it was sent
    assert len(refused) == 1, table.console_errors
    table.console_errors.remove(refused[0])

    # bob finds it in the lobby, joins, leaves before the start, and joins again
    b = bob.page
    b.click("nav a[href='#/lobby']")
    item = b.locator(f"#tournaments li[data-tournament='{tid}']")
    item.wait_for()
    assert "Copa Friday" in item.inner_text() and "Pedro" in item.inner_text()
    item.locator("a").click()
    b.wait_for_selector("#tournament[aria-busy=false] #t-join")
    assert b.locator("#t-start").count() == 0  # the creator's alone
    b.click("#t-join")
    b.wait_for_selector("#t-leave")
    assert len(_players(bob)) == 2
    b.click("#t-leave")
    b.wait_for_selector("#t-join")
    assert len(_players(bob)) == 1 and len(ann.api(f"/v1/tournaments/{tid}")["players"]) == 1
    b.click("#t-join")
    b.wait_for_selector("#t-leave")

    # carla joins in Spanish through the page; dan through the API
    carla = table.seat("Carla Cup", locale="es-ES", words="es")
    _tournament(carla, tid)
    phrases = english_phrases("es")
    no_english(carla, phrases, "an open tournament")
    carla.page.click("#t-join")
    carla.page.wait_for_selector("#t-leave")
    # everything said in the live region from now on (a "your move" may follow the news at once)
    carla.page.evaluate("() => { const el = document.getElementById('status'); window.said = [];"
                        " new MutationObserver(() => window.said.push(el.textContent)).observe(el, {childList: true}); }")
    dan_token = _register(table, "Dan Cup")
    post_as(table.url, dan_token, f"/v1/tournaments/{tid}/join")

    # the creator starts it: round 1's tables, the standings and the board's commitment
    _tournament(ann, tid)
    p.click("#t-start")
    p.wait_for_selector("#tournament[data-status=running] #t-rounds section[data-round='1']")
    now = ann.api(f"/v1/tournaments/{tid}")
    tables = now["rounds"][0]["tables"]
    assert len(tables) == 2 and sorted(x for tb in tables for x in tb["players"]) == sorted(q["id"] for q in now["players"])
    mine = next(tb for tb in tables if made["creator"] in tb["players"])
    other = next(tb for tb in tables if tb is not mine)
    assert p.locator(f"#t-rounds li[data-game='{mine['game_id']}'] a").count() == 1
    assert p.locator(f"#t-rounds li[data-game='{other['game_id']}'] a").count() == 0  # same board, still in play
    rows = p.eval_on_selector_all("#t-standings tbody tr", "els => els.map(e => e.dataset.player)")
    assert rows == [s["player"] for s in now["standings"]] and len(rows) == 4
    board = p.locator("#t-boards li[data-board='1']")
    assert now["boards"][0]["commitment"] in board.inner_text()
    assert board.inner_text().endswith(ann.words["tourney.seed_later"].format(n=1))
    ann.axe("a running tournament")
    ann.shot("tournament")

    # carla, looking at the open tournament, hears of her table from the account's stream, and her
    # page follows without a reload; every word of it Spanish
    carla.page.wait_for_function("text => window.said.includes(text)", arg=carla.words["news.tournament_round"].format(round=1))
    carla.page.wait_for_selector("#tournament[data-status=running] #t-your-table")
    no_english(carla, phrases, "a running tournament")
    carla.axe("a running tournament in Spanish")
    carla.shot("tournament-es")
    carla.page.click("#t-your-table")  # her table, in her words too (the server names tables in English)
    carla.page.wait_for_function("() => { const a = document.querySelector('#tournament-link');"
                                 " return a && !a.textContent.includes('…'); }")
    no_english(carla, phrases, "a tournament's table")

    # the way to one's own table comes first; the game says which tournament and round it is, and leads back
    assert p.get_attribute("#t-your-table", "href") == f"#/game/{mine['game_id']}"
    p.click("#t-your-table")
    link = p.locator("#tournament-link")
    link.wait_for()
    p.wait_for_function("() => !document.querySelector('#tournament-link').textContent.includes('…')")
    assert link.inner_text() == ann.words["game.tournament"].format(name="Copa Friday", n=1)
    assert p.inner_text(".game-head h1").startswith(ann.words["game.table_of"].format(n=tables.index(mine) + 1))
    link.click()
    p.wait_for_selector(f"#tournament[data-tournament='{tid}'][aria-busy=false]")

    # both tables end (a resignation at each): the seed is revealed and round 2 is formed
    tokens = {made["creator"]: ann.token, _id(bob): bob.token, _id(carla): carla.token}
    tokens[next(q["id"] for q in now["players"] if q["id"] not in tokens)] = dan_token
    for tb in tables:
        post_as(table.url, tokens[tb["players"][0]], f"/v1/games/{tb['game_id']}/resign")
    later = _until(ann, tid, lambda x: len(x["rounds"]) == 2)
    _tournament(ann, tid)
    seed = later["boards"][0]["seed"]
    assert seed and seed in p.inner_text("#t-boards li[data-board='1']")
    assert p.locator(f"#t-rounds section[data-round='1'] li[data-game='{other['game_id']}'] a").count() == 1  # round over
    shown = p.eval_on_selector_all("#t-standings tbody tr td.points", "els => els.map(e => e.textContent)")
    assert shown == [f"{s['points']:g}" for s in later["standings"]]
    # on a phone's width the page does not scroll sideways (the standings do, inside their box)
    p.set_viewport_size({"width": 390, "height": 844})
    assert p.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def _until(seat: Seat, tid: str, done: Any) -> Any:
    """The tournament once ``done(it)``: the round after a table's last game is formed by the
    server just after that game's append, so the test reads until it is there."""
    deadline = time.monotonic() + 15
    while not done(x := seat.api(f"/v1/tournaments/{tid}")):
        assert time.monotonic() < deadline, x
        time.sleep(0.1)
    return x


def _register(table: Table, name: str) -> str:
    r = requests.post(table.url + "/v1/players", json={"name": name}, timeout=10)
    r.raise_for_status()
    return str(r.json()["token"])


def _id(seat: Seat) -> str:
    return str(seat.api("/v1/me")["id"])


def test_the_pseudo_locale_finds_no_text_outside_the_catalogs_on_a_tournament_page(table: Table) -> None:
    eve = table.seat("eve", query="?locale=xx-pseudo")
    tid = eve.post("/v1/tournaments", {"name": "Pseudo Cup", "ruleset": "corte", "format": "round_robin",
                                       "seats_per_table": 2, "max_players": 4, "duplicate": True,
                                       "join": False})["id"]  # its creator only organises it
    for name in ("fay", "gus", "hal"):
        post_as(table.url, _register(table, name), f"/v1/tournaments/{tid}/join")
    names = {"facedown", "English", "Español", "Português", "Brasil", "Portugal", "xx-pseudo", "Corte",
             "eve", "fay", "gus", "hal", "Pseudo Cup", eve.handle}
    _tournament(eve, tid, "?locale=xx-pseudo")
    assert not_from_a_catalog(eve, names) == [], "an open tournament"
    eve.post(f"/v1/tournaments/{tid}/start")
    _tournament(eve, tid, "?locale=xx-pseudo")
    eve.page.wait_for_selector("#t-rounds .bye")  # three players at two seats: one sits out
    # eve plays in none of the round's tables: none of them is hers to open while the board is played
    assert eve.page.locator("#t-rounds li a").count() == 0
    assert eve.words["tourney.sealed_all"] in eve.page.inner_text("#t-rounds")
    assert not_from_a_catalog(eve, names) == [], "a running tournament"
