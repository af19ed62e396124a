"""Every page of the web client on a phone (390 × 844): nothing wider than the window (the page
scrolls up and down only), and axe-core and the felt's contrast check clean. The table itself
is played on a phone in test_games_in_the_browser.py (Cuatro Cartas, cat's seat)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.driver import Table
from tests.e2e.served import Served, served


@pytest.fixture(scope="module")
def site(db_factory: Any) -> Iterator[Served]:
    """A site of this module's own: the tournament it starts must not show in the lobby of the
    other browser tests, which expect none."""
    with served(db_factory.new(), workers=1) as server:
        yield server


# each page: the link in the menu, and what the page shows once it has drawn what it read
PAGES = [
    ("lobby", "#/lobby", ".lobby[aria-busy=false]"),
    ("ratings", "#/ratings", "#board-empty:not([hidden]), #board-rows tr"),
    ("rules", "#/rules/README", ".rules-text[aria-busy=false]"),
    ("account", "#/account", "#push-list[aria-busy=false]"),
    ("inbox", "#/", ".inbox[aria-busy=false]"),
]


def test_every_page_fits_a_phone_and_passes_axe(table: Table) -> None:
    dan = table.seat("dan", width=390, height=844)
    dan.check_fits()  # the inbox, just after registering
    for name, href, ready in PAGES:
        dan.page.click(f"nav a[href='{href}']")
        dan.page.wait_for_selector(ready)
        dan.check_fits()
        dan.axe(f"{name} on a phone")
    assert table.axe_runs == [f"{name} on a phone" for name, _, _ in PAGES]


def test_a_running_tournament_fits_a_phone_and_passes_axe(table: Table) -> None:
    dan, eve = table.seat("dan", width=390, height=844), table.seat("eve")
    made = dan.post("/v1/tournaments", {"name": "Phone cup", "ruleset": "pedro", "format": "swiss",
                                     "seats_per_table": 2, "rounds": 2, "max_players": 4})
    eve.post(f"/v1/tournaments/{made['id']}/join")
    dan.post(f"/v1/tournaments/{made['id']}/start")
    dan.page.goto(f"{table.url}/#/tournament/{made['id']}")
    dan.page.wait_for_selector("#t-standings")  # its standings, eight columns wide
    dan.check_fits()
    dan.axe("a running tournament on a phone")
