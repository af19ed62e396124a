"""Driving the web client as players do: register on the page, open a game from the lobby's
form, join, and play by clicking (or dragging) the controls that carry a legal action in
`data-action`. The API is only read (with each player's token) to know when every page is up
to date and to check that a page shows exactly the cards its view sent."""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from domain.choices import CHOICES, allows, covers
from tests.browser import page_scripts as scripts

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parent / "screenshots"
TIMEOUT_MS = 15_000  # what a page is given to do what a test waits for
I18N = Path(__file__).resolve().parents[2] / "service" / "http" / "web" / "static" / "i18n"


def catalog(locale: str = "en") -> dict[str, Any]:
    """A locale's catalog, as the page reads it."""
    return dict(json.loads((I18N / f"{locale}.json").read_text(encoding="utf-8")))


def card_label(code: str | None, spanish: bool = False, words: dict[str, Any] | None = None) -> str:
    """What the page must call a card (cards.js) in a catalog's words: its rank and suit
    ("queen of spades", "reina de picas", "dama de espadas"), or "face down"."""
    w = words or catalog()
    if code is None:
        return str(w["card.down"])
    if code == "JK":
        return str(w["card.joker"])
    rank, suit = code[:-1], code[-1]
    name = rank if spanish or rank not in ("A", "J", "Q", "K") else w[f"rank.{rank}"]
    return str(w["card.name"]).format(rank=name, suit=w[f"suit.spanish.{suit}" if spanish else f"suit.{suit}"])


def _text(value: Any) -> str:
    """A value as the page's JSON.stringify writes it (what data-action and data-legal hold)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Seat:
    """One player: a browser context and its page, with the token the page showed once."""

    def __init__(self, table: Table, name: str, width: int = 1100, height: int = 900, locale: str | None = None,
                 words: str = "en", timezone: str | None = None) -> None:
        self.table = table
        self.context = table.browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                                 timezone_id=timezone, service_workers=table.service_workers)
        self.words = catalog(words)  # the catalog the page is expected to speak
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.on("console", lambda m: table.console_errors.append((name, m.text)) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: table.console_errors.append((name, str(e))))
        self.name = name
        self.token = ""
        self.handle = ""
        self.dragged = False
        self.seen = 0  # the last event of the game this seat may see (some are another seat's alone)
        self.commands: list[str] = []  # the page's commands and their answers, for a failure's message
        # the answer's status from the response event itself: asking a finished request for its
        # response is one more round trip to the browser for every command
        self.page.on("response", lambda r: self._command(r.request, str(r.status)))
        self.page.on("requestfailed", lambda r: self._command(r, str(r.failure)))

    def _command(self, request: Any, outcome: str) -> None:
        if request.method == "POST" and "/commands" in request.url:
            self.commands.append(f"{request.post_data} -> {outcome}")

    # ------------------------------------------------------------------ the account
    def register(self, query: str = "") -> Seat:
        p = self.page
        p.goto(self.table.url + "/" + query)
        p.fill("#reg-name", self.name)
        p.click("#register")
        self.token = p.input_value("#new-token")
        p.click("#continue")
        p.wait_for_selector(".inbox[aria-busy=false]")
        self.handle = p.inner_text("#who").split("@", 1)[1].rstrip(")⟧")  # ⟧: the pseudo-locale's
        return self

    @property
    def auth(self) -> dict[str, str]:
        """This player's token, as a request's header."""
        return {"Authorization": f"Bearer {self.token}"}

    def api(self, path: str) -> Any:
        r = requests.get(self.table.url + path, headers=self.auth, timeout=10)
        r.raise_for_status()
        return r.json()

    def post(self, path: str, body: Any = None) -> Any:
        """This player's POST through the API, beside the page (see :func:`post_as`)."""
        return post_as(self.table.url, self.token, path, body)

    # ------------------------------------------------------------------ a game
    def open_game(self, ruleset: str, seats: int, options: dict[str, Any], invite: list[str],
                  visibility: str = "public") -> str:
        """Fill the lobby's new-game form (the options through their own fields) and send it."""
        p = self.page
        p.click("nav a[href='#/lobby']")
        p.wait_for_selector(".lobby[aria-busy=false]")
        p.select_option("#new-ruleset", ruleset)
        p.fill("#new-seats", str(seats))
        p.fill("#new-name", f"{ruleset} through the page")
        p.select_option("#new-visibility", visibility)
        p.fill("#new-invite", ", ".join(invite))
        p.click(".options-box summary")
        for key, value in options.items():
            field = p.locator(f"#new-game [name='{key}']")
            tag = field.evaluate("el => el.tagName + ':' + el.type")
            if tag == "SELECT:select-one":
                field.select_option(json.dumps(value))
            elif tag == "INPUT:checkbox":
                field.set_checked(bool(value))
            else:
                field.fill(str(value))
        p.click("#create")
        p.wait_for_selector(".game[data-status]")
        return str(p.get_attribute(".game", "data-game"))

    def join_from_inbox(self, game_id: str) -> None:
        """An invited player finds the game in the inbox, opens it and takes the seat kept."""
        p = self.page
        p.click("nav a[href='#/']")
        link = p.locator(f".game-item[data-game='{game_id}'] a.game-link")
        link.wait_for()
        link.click()
        p.click("#join")
        self.seated()

    def accept_from_inbox(self, game_id: str) -> None:
        """An invited player accepts from the inbox (the invitation is under "Your move")."""
        p = self.page
        p.click("nav a[href='#/']")
        p.click(f"#games-yours .game-item[data-game='{game_id}'] button.accept")
        self.seated()

    def join_by_link(self, link: str) -> None:
        self.page.goto(link)
        self.page.click("#join")
        self.seated()

    def seated(self) -> None:
        self.page.wait_for_function("() => { const g = document.querySelector('.game');"
                                    " return g && g.dataset.seat !== undefined && g.dataset.seat !== ''; }")

    def sync(self, game_id: str) -> None:
        """Wait until the page shows the last event this seat may see (its stream brings it),
        in its view and in its history, with no update of the page due."""
        while True:
            page = self.api(f"/v1/games/{game_id}/events?after={self.seen}&limit=500")
            if page["events"]:
                self.seen = page["events"][-1]["version"]
            if not page["more"]:
                break
        self.at_version(self.seen, events=self.seen)

    def at_version(self, version: int, events: int = 0) -> None:
        """Wait until the page's view is at ``version`` or later, its history holds the
        events up to ``events``, and it is not busy (no update due, no read in flight)."""
        try:
            self.page.evaluate(scripts.AT_VERSION, [version, events, TIMEOUT_MS])
        except Exception as exc:
            state = self.page.evaluate("() => { const g = document.querySelector('.game'), t = document.querySelector('#toast');"
                                       " return [g ? [g.dataset.version, g.dataset.events, g.getAttribute('aria-busy')] : null,"
                                       " location.hash, t && !t.hidden ? t.innerText : null,"
                                       " document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : null]; }")
            raise AssertionError(f"{self.name}'s page is not at version {version} with events to {events}: "
                                 f"{state}; its last commands: {self.commands[-3:]}") from exc

    def check_fits(self) -> None:
        """Nothing on the page is wider than the window: a phone's page scrolls up and down only
        (a seat pushed past the table's edge showed white words on the paper)."""
        self._fits(self.page.evaluate(f"() => {scripts.WIDE}"))

    def _fits(self, wide: Any) -> None:
        assert wide is None, (self.name, wide)

    def check_table(self, view: dict[str, Any], spanish: bool = False) -> None:
        """:meth:`check_fits`, then the cards (:meth:`_cards`) and the offers (:meth:`_offers`)
        of the game's page against this seat's view, all read from the page at once: one round
        trip to the browser, not four, at every move of every seat (each round trip through
        Playwright's selector engine cost Chromium and its driver more than the reading)."""
        page = self.page.evaluate(scripts.TABLE)
        self._fits(page["wide"])
        self._cards(view, page["cards"], spanish)
        self._offers(view["legal_actions"], _distinct(page["forms"]), _distinct(page["actions"]))

    def shown(self, selector: str) -> None:
        """Wait for ``selector``; if it never shows, fail saying where the page is and what it
        says instead (its route, its main text, its toast): a timeout alone tells nothing."""
        try:
            self.page.wait_for_selector(selector)
        except Exception as exc:
            state = self.page.evaluate("() => [location.hash, (document.querySelector('main') || document.body)"
                                       ".innerText.slice(0, 600), (document.getElementById('toast') || {}).innerText]")
            raise AssertionError(f"{self.name}'s page never showed {selector}: {state}") from exc

    def forms(self) -> list[dict[str, Any]]:
        """Every entry with choices the page offers as a form, as it carries it in data-legal."""
        return _distinct(self.page.eval_on_selector_all(scripts.FORMS, "els => els.map(e => e.dataset.legal)"))

    def _offers(self, listed: list[dict[str, Any]], forms: list[dict[str, Any]],
                offered: list[dict[str, Any]]) -> None:
        """The page offers exactly the view's legal actions: a form for each entry with choices, a
        control for each without; and every command a control carries (``offered``: a form's
        button, the one its fields make now) is one they allow."""
        assert sorted(map(repr, forms)) == sorted(repr(a) for a in listed if CHOICES in a), self.name
        assert all(a in offered for a in listed if CHOICES not in a), (self.name, "a plain entry is missing")
        assert all(covers(listed, a) for a in offered), (self.name, "a control sends what is not listed")

    def send(self, action: dict[str, Any], version: int, drag: bool = False, keyboard: bool = False) -> bool:
        """Click the control carrying this command (a card if one carries it), or press Enter
        on it, or drag the drawn card onto the control that accepts it; failing those, set the
        fields of the form whose entry allows it and press its button. Then wait for the page to
        move on. Whether a form was filled in."""
        p = self.page
        text = _text(action)
        formed = False
        where = p.evaluate(scripts.CONTROL, [text, drag])  # what the page has for it, read at once
        if where["drop"]:
            self._drag(".game .card.held", f".game [data-drop='{text}']")
            self.dragged = True
        else:
            if where["controls"]:
                controls = p.locator(f".game [data-action='{text}']")
                control = controls.and_(p.locator("button.card")).first if where["card"] else controls.first
            else:
                control = self._fill(action)  # it opens the form's folded group itself
                formed = True
            if where["folded"]:
                control.locator("xpath=ancestor::details[not(@open)]").first.locator("summary").click()
            if keyboard:
                control.focus()
                p.keyboard.press("Enter")
            else:
                control.click()
        try:
            self.at_version(version + 1)
        except AssertionError as exc:
            how = "dragged" if drag and self.dragged else "by its form" if formed else "by the keyboard" if keyboard else "clicked"
            raise AssertionError(f"{action} sent {how}: {exc}") from exc
        self.seen = max(self.seen, version + 1)
        return formed

    def _drag(self, source: str, target: str) -> None:
        """Drag ``source`` onto ``target`` as a hand does: press, move onto the target in steps,
        then once more onto where it is now, and let go. The target is first brought to the
        middle of the window: a drag near the window's edge scrolls the page (Chromium's
        autoscroll, more of it the slower the machine), and the target then moved from under a
        pointer aimed where it had been (the drop went to the cards' row around it, and nothing
        was sent: about one drag in ten on a loaded machine, with Playwright's own
        ``drag_and_drop`` as with this one)."""
        p = self.page
        p.locator(target).evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        p.locator(source).hover()
        p.mouse.down()
        for steps in (5, 1):
            box = p.locator(target).bounding_box()
            assert box is not None, f"{target} is not shown"
            p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=steps)
        p.mouse.up()

    def _fill(self, action: dict[str, Any]) -> Any:
        """The button of the form whose entry allows ``action``, once its fields say so."""
        entry = next(e for e in self.forms() if allows(e, action))
        form = self.page.locator(f".game form[data-legal='{_text(entry)}']").first
        closed = form.locator("xpath=ancestor::details[not(@open)]")
        if closed.count():
            closed.first.locator("summary").click()
        for field, choice in entry[CHOICES].items():
            if "one_of" in choice:
                form.locator(f"select[name='{field}']").select_option(str(choice["one_of"].index(action[field])))
            else:
                for item in choice["subset_of"]:
                    form.locator(f"input[name='{field}'][value='{_text(item)}']").set_checked(item in action[field])
        button = form.locator(f"button[data-action='{_text(action)}']")
        assert button.count() == 1 and button.is_enabled(), (self.name, action)
        return button

    def _cards(self, view: dict[str, Any], shown: list[Any], spanish: bool = False) -> None:
        """The page shows every seat's cards exactly as this seat's view has them: a card the
        view did not send is face down, a card it sent is labelled by rank and suit. ``shown``:
        each seat on the page with its cards' labels."""
        if not view.get("table"):
            return
        have = {seat: labels for seat, labels in shown}
        for p in view["table"]["players"]:
            want = [self.words["card.empty"] if c["empty"] else card_label(c["card"], spanish, self.words) for c in p["cards"]]
            got = [label.split(":")[0].replace("⟦", "").replace("⟧", "") for label in have[p["seat"]]]  # ⟦⟧: pseudo
            assert got == want, (self.name, p["seat"], got, want)

    def axe(self, where: str) -> None:
        """axe-core (the script axe-playwright-python ships) finds nothing serious or critical."""
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(self.page)
        # each node with what axe measured (for color-contrast: the colours and the ratio)
        bad = [(v["id"], v["impact"], [(n["target"], [c.get("data") for c in n.get("any", [])]) for n in v["nodes"]][:3])
               for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert bad == [], (where, bad)
        dim = self.page.evaluate(scripts.ON_THE_FELT)
        assert dim == [], (where, "text on the felt below the WCAG AA contrast", dim)
        self.table.axe_runs.append(where)

    def shot(self, name: str) -> None:
        """A full-page screenshot for a reviewer, taken only when ``FACEDOWN_SCREENSHOTS=1``: no
        test reads them, and a full-page capture costs Chromium up to 1.4 CPU-s (the rules page)."""
        if os.environ.get("FACEDOWN_SCREENSHOTS") != "1":
            return
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _distinct(texts: list[str]) -> list[dict[str, Any]]:
    """The distinct JSON values among ``texts``, parsed, in their first order."""
    seen: dict[str, dict[str, Any]] = {}
    for text in texts:
        seen.setdefault(text, json.loads(text))
    return list(seen.values())


def post_as(base: str, token: str, path: str, body: Any = None) -> Any:
    """POST ``body`` (``{}`` when none) with ``token``: the answer's JSON, which must be a 200 or 201."""
    r = requests.post(base + path, json=body if body is not None else {},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code in (200, 201), r.text
    return r.json()


class Table:
    """The players of one test, and their console errors.

    Their pages run without the client's service worker unless ``service_workers`` is
    ``"allow"`` (the tests of pushes, whose notifications the worker shows; the page offline has
    a test of its own): installing it fetches and caches the whole shell in every player's new
    browser context, about 0.4 CPU-s of Chromium each, and a page online works the same either
    way, since the worker fetches the shell from the network first."""

    def __init__(self, url: str, browser: Any, service_workers: str = "block") -> None:
        self.url = url
        self.browser = browser
        self.service_workers = service_workers
        self.seats: list[Seat] = []
        self.console_errors: list[tuple[str, str]] = []
        self.axe_runs: list[str] = []

    def seat(self, name: str, query: str = "", **kw: Any) -> Seat:
        s = Seat(self, name, **kw).register(query)
        self.seats.append(s)
        return s

    def close(self) -> None:
        for s in self.seats:
            s.context.close()


@contextmanager
def players(url: str, browser: Any, service_workers: str = "block") -> Iterator[Table]:
    """A test's players on the site at ``url``: at the end, no console error in any of their
    pages (a test takes off those it caused on purpose), and every context closed."""
    t = Table(url, browser, service_workers)
    try:
        yield t
        assert t.console_errors == [], t.console_errors
    finally:
        t.close()
