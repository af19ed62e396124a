"""The documents of the repository: every link stays inside it, and each game's rules page
quotes the original text, shows every command a player may send with an example body and
lists every option with its default."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from domain import rules
from service.tools.contract.spec import player_commands

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")
# files of the workplace beside the repository, which a user of facedown does not have
OUTSIDE = ("../shared", "RULES.md", "STYLE.md", "DESIGN.md", "HELPERS.md")


def _documents() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.md", "*.yaml", "*.toml"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [ROOT / p for p in listed]


def test_every_link_of_every_document_stays_inside_the_repository() -> None:
    broken, checked = [], 0
    for doc in _documents():
        for target in LINK.findall(doc.read_text()):
            if target.startswith(("http://", "https://", "mailto:", "#")):
                continue
            checked += 1
            path = target.split("#")[0]
            where = (ROOT / path.lstrip("/")) if path.startswith("/") else (doc.parent / path)
            where = where.resolve()
            if not where.is_relative_to(ROOT) or not where.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert broken == [] and checked > 20


def test_no_document_or_source_names_a_file_from_outside_the_repository() -> None:
    sources = subprocess.run(["git", "ls-files", "*.py", "*.sql"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    files = _documents() + [ROOT / p for p in sources if ROOT / p != Path(__file__).resolve()]
    named = [f"{f.relative_to(ROOT)}: {name}" for f in files for name in OUTSIDE if name in f.read_text()]
    assert named == []


def _page(name: str) -> str:
    return (ROOT / "docs" / "rules" / f"{name}.md").read_text()


@pytest.mark.parametrize("name", rules.names())
def test_the_rules_page_starts_from_the_original_text(name: str) -> None:
    text = _page(name)
    first = text.index("\n## ")
    assert text[first:].startswith("\n## 1. The original text")
    original = text[first:text.index("\n## 2.")]
    assert sum(line.startswith("> ") for line in original.splitlines()) >= 5, "quoted, not retold"


@pytest.mark.parametrize("name", rules.names())
def test_the_rules_page_shows_every_command_with_an_example_body(name: str) -> None:
    text = re.sub(r"\s+", " ", _page(name))
    missing = [t for t in player_commands(rules.get(name)) if not re.search(rf'\{{ ?"type": ?"{t}"', text)]
    assert missing == []


@pytest.mark.parametrize("name", rules.names())
def test_the_rules_page_lists_every_option_with_its_default(name: str) -> None:
    rows = {}
    for line in _page(name).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 3:
            rows[cells[0].strip("`")] = cells
    wrong = []
    for spec in rules.get(name).options:
        cells = rows.get(spec.key)
        if cells is None or f"`{json.dumps(spec.default)}`" not in cells:
            wrong.append((spec.key, spec.default, cells))
    assert wrong == []
