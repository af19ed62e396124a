"""The rules pages inside the web client: docs/rules rendered at serve time in each locale, as
HTML that cannot run anything, whose links stay inside the client's rules pages and land on a
heading that is there."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
import requests

from service.model.account import LOCALES
from service.http.web import rules
from tests.service.helpers import Live, serve


@pytest.fixture(scope="module")
def site(db_factory: Any) -> Iterator[Live]:
    """A server whose answers are not held to openapi.yaml: the client's files are not the API."""
    yield from serve(db_factory.new())


def test_markdown_cannot_put_html_a_script_or_a_foreign_link_in_the_page() -> None:
    html = rules.to_html('# Title\n\n<script>alert(1)</script> <img src=x onerror="alert(2)">\n\n'
                         "[bad](javascript:alert(3)) [away](https://example.org/x) [up](../problems.md) "
                         "[other](corte.es.md#snaps) [here](#title) [index](README.md)\n", "pedro")
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert "example.org" not in html and "problems.md" not in html
    assert "bad" not in re.findall(r'href="([^"]*)"', html) and "[bad](javascript:alert(3))" in html  # text, inert
    assert "away up" in html  # a link that leaves the rules: its words alone
    assert re.findall(r'href="([^"]*)"', html) == ["#/rules/corte/snaps", "#/rules/pedro/title", "#/rules/README"]
    assert '<h1 id="rules-title">' in html


def test_every_page_exists_in_every_locale_and_its_links_land_on_a_heading_there() -> None:
    ids = {(p, loc): set(re.findall(r' id="rules-([^"]+)"', rules.render(p, loc))) for p in rules.PAGES for loc in LOCALES}
    for (page, locale), _ in ids.items():
        for target in re.findall(r'href="#/rules/([^"]+)"', rules.render(page, locale)):
            name, _, anchor = target.partition("/")
            assert name in rules.PAGES, (page, locale, target)
            assert not anchor or unquote(anchor) in ids[(name, locale)], (page, locale, target)
    assert "Cómo se juega" in rules.render("corte", "es") and "How the game is played" not in rules.render("corte", "es")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_server_serves_each_page_as_html_under_the_pages_policy(site: Live, locale: str) -> None:
    r = requests.get(f"{site.url}/web/rules/{locale}/cuatro-cartas.html", timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["Content-Security-Policy"] and "<h1" in r.text
    for bad in ("fr/corte.html", f"{locale}/nope.html", f"{locale}/..%2Fcorte.html"):
        missing = requests.get(f"{site.url}/web/rules/{bad}", timeout=10)
        assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json", bad
