"""Ratings in the page (docs/ratings.md): after a rated game, its game-over panel shows each
seat's change, the leaderboard of its game lists both players best first, and a player's
profile shows their results and their rating over time as an SVG chart."""
from __future__ import annotations

from tests.browser.driver import Table


def test_the_leaderboard_and_the_profile_show_after_a_rated_game(table: Table) -> None:
    ann, bob = table.seat("Ann Rated"), table.seat("Bob Rated")
    gid = ann.post("/v1/games", {"ruleset": "pedro", "seats": 2})["id"]
    bob.post(f"/v1/games/{gid}/join")
    # ann's page is open elsewhere: what its live region says from now on
    ann.page.goto(f"{table.url}/#/lobby")
    ann.page.wait_for_selector("#status", state="attached")
    ann.page.evaluate("() => { const el = document.getElementById('status'); window.said = [];"
                      " new MutationObserver(() => window.said.push(el.textContent)).observe(el, {childList: true}); }")
    bob.post(f"/v1/games/{gid}/resign")  # ann wins, bob ranks last
    # the game_over news carries her new rating, and the page says it
    news = ann.words["news.game_over"].split("{")[0]
    ann.page.wait_for_function("(start) => window.said.some((s) => s.startsWith(start))", arg=news)
    changes = ann.api(f"/v1/games/{gid}")["rating_changes"]
    assert [c["rank"] for c in changes] == [1, 2]

    p = ann.page
    p.goto(f"{table.url}/#/game/{gid}")
    p.wait_for_selector("#rating-changes li[data-seat='1']")
    items = p.locator("#rating-changes li").all_inner_texts()
    assert len(items) == 2 and "Ann Rated" in items[0] and "Bob Rated" in items[1] and "→" in items[0]

    p.click("nav a[href='#/ratings']")
    p.wait_for_selector("#board-ruleset")
    p.select_option("#board-ruleset", "pedro")
    rows = p.locator(f"#board-rows tr[data-player='{changes[0]['player_id']}']")
    rows.wait_for()
    names = [r.split("\t")[1] for r in p.locator("#board-rows tr").all_inner_texts()]
    assert names.index("Ann Rated") < names.index("Bob Rated")  # the winner above the loser
    # on the page's paper, where axe can measure its words' contrast (on the table's felt, a
    # gradient, it cannot: the leaderboard once wore the table's class, grey on dark green)
    assert p.evaluate("getComputedStyle(document.getElementById('board')).backgroundImage") == "none"
    ann.axe("leaderboard")
    ann.shot("ratings-leaderboard")

    rows.locator("a").click()
    p.wait_for_selector("#profile")
    assert "Ann Rated" in p.inner_text("#profile h1")
    assert p.locator("#chart-pedro circle").count() == 2  # the start and the one game
    shown = p.get_attribute("#chart-pedro", "aria-label") or ""
    assert "Pedro" in shown
    assert "1" in p.inner_text("#profile")  # one finished game, one won
    ann.axe("profile")
    ann.shot("ratings-profile")
