"""Two or three players, each in a browser context of their own, play a whole game of each
ruleset through the page: they register on it, open the game from the lobby's form with
options that keep it short, invite or share a link, and play by the page's data-action
controls alone. Each page shows exactly the cards its view sent; axe-core finds nothing
serious or critical on the inbox, the lobby and each table; no console error; with
FACEDOWN_SCREENSHOTS=1, screenshots of each table and of the inbox are saved under
tests/browser/screenshots/."""
from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

from domain.choices import find
from tests.browser.driver import Seat, Table
from tests.browser.play import CALLS, CLAIMS, PEEKS, POWER_MOVES, Seen, play


def _after_the_game(seat: Seat, game_id: str, ruleset: str) -> None:
    """The end: the reveal and the scoring explained, the result, and the replay of the audit."""
    seat.sync(game_id)
    p = seat.page
    p.wait_for_selector(".game .finished")
    result = p.inner_text(".game .round-result")
    assert "the reveal and the scoring" in result and "Totals:" in result
    assert p.locator(".game .round-result .reveal .card.up").count() > 0  # every card of the round, face up
    seat.shot(f"end-{ruleset}")
    p.click("#replay-link")
    seat.shown(".replay[aria-busy=false]")
    seat.shown(".replay-board .board")
    p.click("#replay-prev")
    p.wait_for_function("() => document.querySelector('#replay-said').textContent.startsWith('Event')")
    assert "every check passed" in p.inner_text(".replay")


def _a_standing_order_placed_and_cancelled(seat: Seat, game_id: str) -> None:
    """Through the page: leave a standing order (its form in the folded group: a rank and a card
    chosen), see it listed, and cancel it from the list."""
    version = seat.api(f"/v1/games/{game_id}")["version"]
    seat.sync(game_id)
    listed = seat.api(f"/v1/games/{game_id}/view")["legal_actions"]
    order = find(listed, type="PlaceOrder", claim="SnapOwn", rank="Q", slot="C")
    assert order is not None
    assert seat.send(order, version), "the order's rank and card were chosen in its form"
    listed = seat.page.locator(".game .orders li button[data-action]")
    listed.wait_for()
    assert "snap with your card C when a queen is discarded" in seat.page.inner_text(".game .orders li")
    cancel = json.loads(str(listed.get_attribute("data-action")))
    assert cancel == {"type": "CancelOrder", "order_id": 1}
    seat.send(cancel, version + 1)
    assert "None." in seat.page.inner_text(".game .orders")


def _milestone(seat: Seat, game_id: str, name: str, moves: int = 10) -> tuple[Any, list[bool], int]:
    """After `moves` moves, the first time the game awaits `seat` (by its view, so whatever the
    page is still drawing), or two moves later whoever it awaits: axe on its table, and a
    screenshot. Returns the check, whether it ran, and the moves by which it has run (the game
    must make no call before: ``play(calls_from=...)``)."""
    done: list[bool] = []

    def check(seen: Seen) -> None:
        if done or seen.moves < moves:
            return
        if seat.api(f"/v1/games/{game_id}")["status"] != "active":
            return
        view = seat.api(f"/v1/games/{game_id}/view")
        yours = view["seat"] in view["awaiting"]
        if not yours and seen.moves < moves + 2:
            return
        seat.sync(game_id)
        if yours:
            seat.page.wait_for_selector(".game .headline.yours")
        seat.axe(f"{name} table")
        seat.shot(f"table-{name}")
        done.append(True)

    return check, done, moves + 2


def _view_reads(seats: list[Seat], game_id: str) -> Counter[str]:
    """How many times each seat's page reads the game's view from now on, by its player's name."""
    reads: Counter[str] = Counter()
    for s in seats:
        s.page.on("request", lambda r, name=s.name: reads.update([name]) if r.method == "GET"
                  and r.url.split("?")[0].endswith(f"/v1/games/{game_id}/view") else None)
    return reads


def _late(route: Any) -> None:
    """The server's answer, handed to the page 0.3 s after it came."""
    answer = route.fetch()
    time.sleep(0.3)
    route.fulfill(response=answer)


def test_corte_three_players_with_a_snap_a_power_a_peek_and_the_call(table: Table) -> None:
    ann, bob, cat = table.seat("ann"), table.seat("bob"), table.seat("cat")
    ann.page.click("nav a[href='#/lobby']")
    ann.page.wait_for_selector(".lobby[aria-busy=false]")
    ann.axe("lobby")
    ann.shot("lobby")
    gid = ann.open_game("corte", 3, {"target_score": 1, "failed_call_penalty": 0}, [bob.handle, cat.handle])
    bob.join_from_inbox(gid)
    cat.join_from_inbox(gid)
    ann.page.click("nav a[href='#/']")
    ann.page.wait_for_selector(f".game-item.yours[data-game='{gid}'] time[data-deadline]")
    ann.axe("inbox")
    ann.shot("inbox")
    ann.page.click(f".game-item[data-game='{gid}'] a.game-link")
    _a_standing_order_placed_and_cancelled(ann, gid)
    check, done, by = _milestone(ann, gid, "corte")
    seen = play([ann, bob, cat], gid, "corte", seed=19, on_move=check, calls_from=by)
    assert done, "the table was checked and photographed during the game"
    assert seen.had(PEEKS) and seen.had(POWER_MOVES) and seen.had({"SnapOwn", "SnapRival"}) and "CallCorte" in seen.types
    assert seen.dragged, "the drawn card was dragged at least once"
    _after_the_game(ann, gid, "corte")
    assert set(table.axe_runs) == {"lobby", "inbox", "corte table"}


def test_cuatro_cartas_three_players_with_a_match_a_power_a_peek_and_the_close(table: Table) -> None:
    ann, bob = table.seat("ann"), table.seat("bob")
    cat = table.seat("cat", width=390, height=844)  # a phone
    gid = ann.open_game("cuatro-cartas", 3, {"rounds": 1}, [bob.handle, cat.handle])
    bob.join_from_inbox(gid)
    cat.join_from_inbox(gid)
    check, done, _ = _milestone(ann, gid, "cuatro-cartas")
    phone, phoned, by = _milestone(cat, gid, "cuatro-cartas-phone", moves=14)
    seen = play([ann, bob, cat], gid, "cuatro-cartas", seed=4, on_move=lambda s: (check(s), phone(s)),
                calls_from=by)
    assert done and phoned
    assert seen.had(PEEKS) and seen.had(POWER_MOVES) and seen.had({"Match", "MatchRival", "MatchGroup"})
    assert "Close" in seen.types
    _after_the_game(bob, gid, "cuatro-cartas")


def test_pedro_two_players_in_an_unlisted_game_joined_by_its_link(table: Table) -> None:
    ann, bob = table.seat("ann"), table.seat("bob")
    gid = ann.open_game("pedro", 2, {"match_mode": "rounds", "rounds": 1, "peek_timing": "before_own_first_turn"},
                        [], visibility="unlisted")
    ann.page.wait_for_selector("#share-link")
    link = ann.page.input_value("#share-link")
    assert f"#/join/{gid}/" in link
    bob.join_by_link(link)
    check, done, by = _milestone(ann, gid, "pedro", moves=4)
    seen = play([ann, bob], gid, "pedro", seed=7, on_move=check, calls_from=by)
    assert done
    assert seen.had(PEEKS) and seen.had(POWER_MOVES) and "CallPedro" in seen.types
    assert "Keep" in seen.formed, "a multi-discard's slots were ticked in its form"
    _after_the_game(ann, gid, "pedro")


def test_least_score_two_players_until_one_is_out(table: Table) -> None:
    ann, bob = table.seat("ann"), table.seat("bob")
    gid = ann.open_game("least-score", 2, {"elimination_threshold": 25, "end_on_first_elimination": True},
                        [bob.handle])
    bob.join_from_inbox(gid)
    check, done, by = _milestone(bob, gid, "least-score", moves=3)
    reads = _view_reads([ann, bob], gid)
    # ann's answers come late, as on a slow network: the stream brings each of her commands'
    # events before the answer that holds them, and her page must not read the view for them
    ann.page.route("**/v1/games/*/commands*", _late)
    seen = play([ann, bob], gid, "least-score", seed=3, on_move=check, call_after=6, calls_from=by)
    assert done
    # a page reads the view again for its rival's moves, not for its own: the answer to its
    # command brought the view and the command's events (a few reads more for the game's end)
    for s, rival in ((ann, bob), (bob, ann)):
        assert reads[s.name] <= seen.by[rival.name] + 3, (s.name, reads, seen.by)
    assert "Declare" in seen.types and seen.had({"Play"})
    assert seen.had(CALLS) and not seen.had(CLAIMS)
    _after_the_game(bob, gid, "least-score")
