"""One class name, one purpose: a rule of app.css that applies wherever its class is (its selector
does not start inside some other element) styles the elements of one module of the web client,
unless the class is one of the components meant for every page.

Twice a class written for one page was given to another page's elements, and the first page's
rule then styled them too: the tournament's ``.facts`` (a grid of terms) made the table's lines
of facts unwrappable on a phone, and the table's ``.board`` put the ratings' leaderboard on the
green felt. Both were found only by a failing browser test. This finds the next one statically:
every element the modules build with ``h("tag", { class: ... })`` or ``classList.add``, against
the first compound of every selector."""
from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "service" / "http" / "web" / "static"

#: the components every page may use, by the first compound of their selectors
SHARED = {
    ".badge", ".turn-badge",  # the small marks beside names and games
    ".error", ".hint", ".none", ".meta", ".note",  # said under a form, a list, an item
    ".field", ".check.field",  # a form's labelled field
    ".games", ".game-item", ".game-item.yours",  # a list of games: the inbox, the lobby, a tournament
    "button.primary", "button.small", "button.danger", "input.link",  # controls
}


def _compounds(css: str) -> set[tuple[str, frozenset[str]]]:
    """(tag or "", classes) of the first compound of every selector that has a class there."""
    out = set()
    for rule in re.finditer(r"([^{}]+)\{[^{}]*\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        for selector in rule.group(1).split(","):
            first = re.split(r"\s*[ >+~]\s*", selector.strip())[0]
            first = re.sub(r"::?[\w-]+(\([^)]*\))?|\[[^\]]*\]", "", first)  # pseudo-classes, attributes
            classes = frozenset(re.findall(r"\.([\w-]+)", first))
            if classes:
                tag = re.match(r"[a-z][a-z0-9]*", first)
                out.add((tag.group(0) if tag else "", classes))
    return out


def _elements(js: Path) -> list[tuple[str, frozenset[str]]]:
    """(tag, classes) of every element a module builds with a class ("*": a class it adds later).
    A template's ``${...}`` counts the words its quotes hold: ``seat${mine ? " mine" : ""}``."""
    src, out = js.read_text(encoding="utf-8"), []
    for m in re.finditer(r'\bh\(\s*"(\w+)"\s*,\s*\{[^{}]*?\bclass:\s*(["`])(.*?)\2', src, flags=re.S):
        words = re.sub(r"\$\{([^}]*)\}", lambda x: " " + " ".join(re.findall(r'"([^"]*)"', x.group(1))) + " ",
                       m.group(3))
        out.append((m.group(1), frozenset(re.findall(r"[\w-]+", words))))
    out += [("*", frozenset([c])) for c in re.findall(r'classList\.(?:add|toggle)\(\s*"([\w-]+)"', src)]
    return out


def _selector(tag: str, classes: frozenset[str]) -> str:
    """A first compound written back as a selector: ``dl.facts``, ``.game-item.yours``."""
    return tag + "".join(f".{c}" for c in sorted(classes))


def styled_by_two(static: Path) -> dict[str, list[str]]:
    """Each first compound of app.css that styles elements of more than one module: its modules."""
    built = [(js.name, tag, classes) for js in sorted((static / "js").glob("*.js")) for tag, classes in _elements(js)]
    out = {}
    for tag, classes in _compounds((static / "app.css").read_text(encoding="utf-8")):
        modules = sorted({name for name, t, cs in built if classes <= cs and (not tag or t in (tag, "*"))})
        if len(modules) > 1:
            out[_selector(tag, classes)] = modules
    return out


def test_no_rule_for_one_page_styles_another_pages_elements() -> None:
    found = {k: v for k, v in styled_by_two(STATIC).items() if k not in SHARED}
    assert found == {}, f"one class styled for several modules (rename one, or list it in SHARED): {found}"


def test_the_check_finds_the_collisions_it_was_written_for(tmp_path: Path) -> None:
    """The two faults of before, rebuilt in a copy of the client: each is found."""
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "board.js").write_text('h("div", { class: "board" }); h("p", { class: "facts" });')
    (tmp_path / "js" / "ratings.js").write_text('h("section", { class: "board" }, rows);')
    (tmp_path / "js" / "tournament.js").write_text('h("dl", { class: `facts${x ? " wide" : ""}`, id: "f" });')
    (tmp_path / "app.css").write_text(".board { background: green; }\n.facts { display: grid; }\n"
                                      "p.facts { margin: 0; }\n.board > .note { color: red; }\n")
    assert styled_by_two(tmp_path) == {".board": ["board.js", "ratings.js"], ".facts": ["board.js", "tournament.js"]}


def test_every_shared_component_is_still_styled_and_built() -> None:
    """SHARED names only what app.css styles for several modules: a stale entry would hide the
    next collision under its name."""
    styled = {_selector(tag, cs) for tag, cs in _compounds((STATIC / "app.css").read_text(encoding="utf-8"))}
    assert SHARED <= styled, sorted(SHARED - styled)
    several = set(styled_by_two(STATIC))
    assert SHARED <= several, sorted(SHARED - several)
