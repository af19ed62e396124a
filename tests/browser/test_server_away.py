"""The page while the service is away for a moment: a read answered 503 (as the service answers
while its database restarts, with Retry-After) is asked again after the wait the server names,
up to twice; past that, the page shows the problem instead of waiting on."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.browser.driver import Seat, Table

AWAY = {"type": "https://facedown.invalid/problems/unavailable", "title": "Service Unavailable", "status": 503,
        "detail": "the database is away for a moment"}


def _until(seat: Seat, done: Callable[[], bool], seconds: float) -> bool:
    """Whether ``done()`` came true within ``seconds``, asked every 50 ms (Playwright hands the
    page's events over, routes and console messages, only while it waits)."""
    for _ in range(int(seconds * 20)):
        if done():
            return True
        seat.page.wait_for_timeout(50)
    return done()


class Away:
    """Once the page loads again, its next ``times`` reads of the player's games are answered 503
    with Retry-After: 1, the rest go on to the server: when each read was asked, and how many
    were answered 503. (Reads the page made before it loaded again go on to the server: their
    retries would end with the old page.)"""

    def __init__(self, seat: Seat, times: int) -> None:
        self.seat, self.times = seat, times
        self.asked: list[float] = []
        self.refused = 0
        self.armed = False
        seat.page.route("**/v1/me/games?*", self._answer)
        seat.page.on("framenavigated", self._arm)

    def _arm(self, frame: Any) -> None:
        if frame == self.seat.page.main_frame:
            self.armed = True

    def _answer(self, route: Any) -> None:
        if not self.armed:
            route.continue_()
            return
        self.asked.append(time.monotonic())
        if len(self.asked) <= self.times:
            self.refused += 1
            route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/problem+json",
                          body=json.dumps(AWAY))
        else:
            route.continue_()

    def quiet(self) -> None:
        """Until the page has asked nothing for 2 s (at most 15 s)."""
        if not _until(self.seat, lambda: bool(self.asked) and time.monotonic() - self.asked[-1] >= 2, 15):
            raise AssertionError(f"the page never stopped asking: {self.asked}")

    def forget_console_errors(self) -> None:
        """The browser logs each 503 as a console error, a moment after it: once all have come,
        those this test caused are taken off the list the fixture checks (and no other)."""
        table = self.seat.table

        def mine() -> list[tuple[str, str]]:
            return [e for e in table.console_errors if "status of 503" in e[1]]

        _until(self.seat, lambda: len(mine()) >= self.refused, 5)
        assert len(mine()) == self.refused, (mine(), self.refused)
        for e in mine():
            table.console_errors.remove(e)


def _inbox_reloaded(seat: Seat, times: int) -> Away:
    """The inbox on screen, then the page loaded again with the next ``times`` reads refused."""
    seat.page.evaluate("() => { location.hash = '#/'; }")
    seat.page.wait_for_selector(".inbox[aria-busy=false]")
    away = Away(seat, times)
    seat.page.reload()
    return away


def test_a_read_answered_503_is_asked_again_after_its_retry_after_and_the_inbox_loads(table: Table) -> None:
    ann = table.seat("ann")
    gid = ann.open_game("pedro", 2, {}, [])
    away = _inbox_reloaded(ann, 1)
    ann.page.wait_for_selector(f".inbox[aria-busy=false] .game-item[data-game='{gid}']")
    # the refused read is asked again, no sooner than the second the server named (the page
    # also reads its games at once on other grounds: those are answered at once)
    _until(ann, lambda: away.asked[-1] - away.asked[0] >= 0.9, 3)
    again = [t - away.asked[0] for t in away.asked if t - away.asked[0] >= 0.9]
    assert away.refused == 1 and again and again[0] < 3, away.asked
    ann.page.wait_for_selector(f".inbox[aria-busy=false] .game-item[data-game='{gid}']")
    assert ann.page.locator(".inbox li.error").count() == 0
    away.forget_console_errors()


def test_a_read_still_answered_503_after_two_retries_shows_the_problem(table: Table) -> None:
    ann = table.seat("ann")
    away = _inbox_reloaded(ann, 1000)
    ann.page.wait_for_selector(".inbox li.error")
    assert ann.page.inner_text(".inbox li.error") == ann.words["problem.unavailable"]
    away.quiet()
    # each read asked three times, a second apart, then given up: the page reads its games once
    # as it opens, and once more for whatever asked while that read was on its way
    assert len(away.asked) in (3, 6), away.asked
    for chain in (away.asked[:3], away.asked[3:]):
        assert all(later - earlier >= 0.9 for earlier, later in zip(chain, chain[1:])), away.asked
    away.forget_console_errors()
