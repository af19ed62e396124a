"""The rules pages (docs/rules/*.md) as the web client shows them: HTML rendered at serve time
by markdown-it-py, in the player's language.

The pages reach the package through ``service/web/rules``, a link to ``docs/rules``: one text,
kept in docs/, and a wheel carries copies of the files (package data follows the link).
Raw HTML in the Markdown is escaped (``html`` off), links are kept only when they lead to
another rules page or a heading (rewritten to the client's routes, ``#/rules/<page>/<id>``) and
shown as plain text otherwise, and headings carry ids prefixed ``rules-`` (GitHub's slugs, as
the pages' own links spell them), so nothing in a page can run, load or collide with the page
around it.
"""
from __future__ import annotations

import functools
from pathlib import Path
from urllib.parse import quote, unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.anchors.index import slugify

RULES = Path(__file__).resolve().parent / "rules"
PAGES = ("README", "pedro", "least-score", "cuatro-cartas", "corte")
# which file speaks a locale: both Portuguese locales read the one Portuguese page
SUFFIX = {"en": ".md", "es": ".es.md", "pt-BR": ".pt.md", "pt-PT": ".pt.md"}
PREFIX = "rules-"


def _target(href: str, page: str) -> str | None:
    """The client's route for a link of ``page``, or None for one that leaves the rules."""
    path, _, anchor = href.partition("#")
    if "/" in path or ":" in path:
        return None
    name = path.split(".", 1)[0] if path else page
    if name not in PAGES:
        return None
    return f"#/rules/{name}" + (f"/{quote(unquote(anchor))}" if anchor else "")


def _links(tokens: list[Token], page: str) -> None:
    """Rewrite or drop every link, in place."""
    for tok in tokens:
        if tok.children:
            kept: list[Token] = []
            dropped: list[bool] = []
            for child in tok.children:
                if child.type == "link_open":
                    to = _target(str(child.attrGet("href") or ""), page)
                    dropped.append(to is None)
                    if to is None:
                        continue
                    child.attrSet("href", to)
                elif child.type == "link_close" and dropped.pop():
                    continue
                kept.append(child)
            tok.children = kept


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    anchors_plugin(md, min_level=1, max_level=4, slug_func=lambda title: PREFIX + slugify(title))
    return md


def to_html(text: str, page: str) -> str:
    """Markdown of the rules page ``page`` as the client shows it."""
    md = _parser()
    tokens = md.parse(text)
    _links(tokens, page)
    return str(md.renderer.render(tokens, md.options, {}))


@functools.cache
def render(page: str, locale: str) -> str:
    """The page in that locale as an HTML fragment (KeyError: no such page or locale)."""
    if page not in PAGES:
        raise KeyError(page)
    text = (RULES / f"{page}{SUFFIX[locale]}").read_text(encoding="utf-8")
    # the first line links the page's three versions: the client's language menu does that
    text = text.split("\n", 1)[1] if text.startswith(("[", "**")) else text
    return to_html(text, page)
