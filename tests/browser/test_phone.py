"""Every page of the web client on a phone (390 × 844): nothing wider than the window (the page
scrolls up and down only), and axe-core and the felt's contrast check clean. The table itself
is played on a phone in test_games_in_the_browser.py (Cuatro Cartas, cat's seat)."""
from __future__ import annotations

from tests.browser.driver import Table

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
