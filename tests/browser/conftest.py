"""The web client in a real browser: `facedown serve` in a subprocess and Debian's Chromium
driven by Playwright (its own browser download is not used: CI installs `chromium`)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.driver import CHROMIUM, Table, players
from tests.e2e.served import Served, served


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(str(item.fspath)).resolve().parent == here:
            item.add_marker(pytest.mark.browser)


# package-scoped: the server and the browser stop when the last browser test has run, not when
# the process that ran them has run all its other shares too (idle until then, and their stop
# then added to the end of the whole run)
@pytest.fixture(scope="package")
def site(db_factory: Any) -> Iterator[Served]:
    with served(db_factory.new(), workers=1) as server:
        yield server


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


@pytest.fixture
def table(request: pytest.FixtureRequest, site: Served, browser: Any) -> Iterator[Table]:
    """Players' browser contexts on the served site; at the end, no console error in any. A
    module whose pages need the service worker says so: ``SERVICE_WORKERS = "allow"``."""
    with players(site.url, browser, getattr(request.module, "SERVICE_WORKERS", "block")) as t:
        yield t
