"""The rules pages in Spanish and Portuguese: every English page of docs/rules/ has both, with the
same headings in the same order, every code span and code block of the English page unchanged
(commands, options, fields and problem types are the API and are not translated), a first line
that links the three versions of the page, and links that lead to pages and headings of the
repository, in the page's own language."""
from __future__ import annotations

import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
LANGUAGES = ("es", "pt")
ENGLISH = sorted(p.name for p in RULES.glob("*.md") if len(p.suffixes) == 1)
MARKDOWN = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Page:
    headings: tuple[tuple[int, str], ...]  # (level, text as shown)
    code: frozenset[str]  # inline code spans
    blocks: frozenset[str]  # fenced blocks
    links: tuple[tuple[int, str], ...]  # (line, target)


def _read(path: Path) -> Page:
    headings: list[tuple[int, str]] = []
    code: set[str] = set()
    blocks: set[str] = set()
    links: list[tuple[int, str]] = []
    tokens = MARKDOWN.parse(path.read_text())
    for i, token in enumerate(tokens):
        if token.type == "fence":
            blocks.add(token.content)
        elif token.type == "inline":
            children = token.children or []
            code.update(c.content for c in children if c.type == "code_inline")
            links += [(token.map[0] if token.map else -1, str(c.attrGet("href")))
                      for c in children if c.type == "link_open"]
            if tokens[i - 1].type == "heading_open":
                text = "".join(c.content for c in children if c.type in ("text", "code_inline"))
                headings.append((int(tokens[i - 1].tag[1]), text))
    return Page(tuple(headings), frozenset(code), frozenset(blocks), tuple(links))


def _anchors(page: Page) -> set[str]:
    """The anchors a renderer gives the headings: lower case, punctuation dropped, spaces as
    hyphens, a repeated one numbered."""
    seen: Counter[str] = Counter()
    out = set()
    for _, text in page.headings:
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        out.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return out


def _versions(english: str) -> dict[str, str]:
    stem = english.removesuffix(".md")
    return {"en": english} | {lang: f"{stem}.{lang}.md" for lang in LANGUAGES}


def _language(name: str) -> str:
    parts = name.split(".")
    return parts[-2] if len(parts) == 3 else "en"


def _link_problems(path: Path, root: Path) -> list[str]:
    """Every link leads to a file of the repository (and a heading of it, when it names one);
    the first line links the other versions of the page, every later link to a rules page stays
    in the page's language."""
    problems = []
    page, lang = _read(path), _language(path.name)
    stem = path.name.split(".")[0]
    first = {target for line, target in page.links if line == 0}
    others = {v for code, v in _versions(f"{stem}.md").items() if code != lang}
    if not others <= first:
        problems.append(f"{path.name}: the first line links {sorted(first)}, not {sorted(others)}")
    for line, target in page.links:
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file, _, anchor = unquote(target).partition("#")
        where = (root / file.lstrip("/") if file.startswith("/") else path.parent / file if file else path).resolve()
        if not where.is_relative_to(root) or not where.is_file():
            problems.append(f"{path.name}: {target} leads to no file of the repository")
            continue
        if anchor and where.suffix == ".md" and anchor not in _anchors(_read(where)):
            problems.append(f"{path.name}: {target} names no heading of {where.name}")
        if line > 0 and where.parent == path.parent and _language(where.name) != lang:
            problems.append(f"{path.name}: {target} leaves the page's language")
    return problems


def _problems(english: Path, root: Path) -> list[str]:
    """What keeps the translations of one English rules page from matching it."""
    source = _read(english)
    problems = _link_problems(english, root)
    for lang in LANGUAGES:
        path = english.with_name(_versions(english.name)[lang])
        if not path.is_file():
            problems.append(f"{path.name} is missing")
            continue
        page = _read(path)
        levels = [[level for level, _ in p.headings] for p in (source, page)]
        if levels[0] != levels[1]:
            problems.append(f"{path.name}: headings by level {Counter(levels[1])}, "
                            f"not {Counter(levels[0])} in that order")
        numbers = [[text.split(".")[0] for _, text in p.headings if text[:1].isdigit()] for p in (source, page)]
        if numbers[0] != numbers[1]:
            problems.append(f"{path.name}: section numbers {numbers[1]}, not {numbers[0]}")
        for what, mine, theirs in (("code span", page.code, source.code),
                                   ("code block", page.blocks, source.blocks)):
            problems += [f"{path.name}: no {what} {s!r}" for s in sorted(theirs - mine)]
            problems += [f"{path.name}: a {what} {s!r} the English page has not" for s in sorted(mine - theirs)]
        problems += _link_problems(path, root)
    return problems


@pytest.mark.parametrize("english", ENGLISH)
def test_each_rules_page_has_a_faithful_spanish_and_portuguese_version(english: str) -> None:
    assert _problems(RULES / english, ROOT) == []


def test_there_are_five_english_rules_pages_and_no_stray_translation() -> None:
    assert ENGLISH == ["README.md", "corte.md", "cuatro-cartas.md", "least-score.md", "pedro.md"]
    expected = {v for e in ENGLISH for v in _versions(e).values()}
    assert {p.name for p in RULES.glob("*.md")} == expected


def test_a_translation_that_drifts_from_its_english_page_is_caught(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    rules = tmp_path / "docs" / "rules"
    es, pt = rules / "corte.es.md", rules / "corte.pt.md"
    es.write_text(es.read_text().replace("`lock_caller`", "`bloquear_cantor`")
                  .replace("](README.es.md)", "](README.md)")
                  .replace("(README.es.md#", "(README.es.md#no-such-heading-")
                  .replace(" · [Português](corte.pt.md)", "", 1))
    pt.write_text(pt.read_text().replace('"type": "SnapOwn"', '"type": "SnapOwnX"', 1)
                  .replace("\n### ", "\n#### ", 1).replace("\n## 5.", "\n## 8.", 1))
    (rules / "pedro.pt.md").unlink()
    corte, pedro = (_problems(rules / name, tmp_path) for name in ("corte.md", "pedro.md"))
    assert "corte.es.md: no code span 'lock_caller'" in corte
    assert "corte.es.md: a code span 'bloquear_cantor' the English page has not" in corte
    assert any(p.startswith("corte.es.md: README.md ") and "leaves the page's language" in p for p in corte)
    assert any(p.startswith("corte.es.md: README.es.md#no-such-heading-") for p in corte)
    assert any(p.startswith("corte.es.md: the first line links") for p in corte)
    assert any(p.startswith("corte.pt.md: no code block") for p in corte)
    assert any(p.startswith("corte.pt.md: headings by level") for p in corte)
    assert any(p.startswith("corte.pt.md: section numbers") for p in corte)
    assert "pedro.pt.md is missing" in pedro
    assert "pedro.md: pedro.pt.md leads to no file of the repository" in pedro
