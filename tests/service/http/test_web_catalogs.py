"""The web client's catalogs (service/http/web/static/i18n/<locale>.json): one per locale a player
may choose, each with the same keys and the same placeholders, plural forms for each category
its language has, no English left in the others but true cognates and names, and a message for
every key the client's modules name, every problem type and every option of every game."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from service.model.account import LOCALES
from service.model.problems import PROBLEMS

STATIC = Path(__file__).resolve().parents[3] / "service" / "http" / "web" / "static"
CATALOGS = {loc: json.loads((STATIC / "i18n" / f"{loc}.json").read_text(encoding="utf-8")) for loc in LOCALES}
EN = CATALOGS["en"]
# Intl.PluralRules' cardinal categories (CLDR) of each language: a message with plural forms
# must have each one the language uses for whole numbers
PLURALS = {"en": {"one", "other"}, "es": {"one", "many", "other"}, "pt-BR": {"one", "many", "other"},
           "pt-PT": {"one", "many", "other"}}
# the same words in English and the other language: names (facedown, the calls of the original
# texts, Buchholz's tie-break) and cognates
NAMES = {"title.page", "scores.total", "call.corte", "call.pedro", "call.fechei", "tourney.tie.buchholz"}
# Spanish cognates of the ratings (docs/ratings.md): a bot account's mark, a provisional rating
SAME_AS_ENGLISH = {"es": NAMES | {"optval.no", "bot.badge", "ratings.provisional"}, "pt-BR": NAMES, "pt-PT": NAMES}
OTHERS = [loc for loc in LOCALES if loc != "en"]


def _forms(message: Any) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def _placeholders(message: Any) -> set[str]:
    return {name for form in _forms(message) for name in re.findall(r"\{(\w+)\}", form)}


def test_every_locale_has_the_same_keys_and_placeholders() -> None:
    for loc, catalog in CATALOGS.items():
        assert set(catalog) == set(EN), (loc, sorted(set(catalog) ^ set(EN)))
        for key, message in catalog.items():
            assert _placeholders(message) == _placeholders(EN[key]), (loc, key)
            assert all(isinstance(f, str) and f.strip() for f in _forms(message)), (loc, key)


def test_plural_messages_have_every_category_of_their_language() -> None:
    for loc, catalog in CATALOGS.items():
        for key, message in catalog.items():
            assert isinstance(message, dict) == isinstance(EN[key], dict), (loc, key)
            if isinstance(message, dict):
                assert set(message) == PLURALS[loc], (loc, key, sorted(message))


@pytest.mark.parametrize("loc", OTHERS)
def test_no_english_is_left_in_another_locale(loc: str) -> None:
    left = [k for k, m in CATALOGS[loc].items() if m == EN[k] and k not in SAME_AS_ENGLISH[loc]
            and re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", json.dumps(m, ensure_ascii=False)))]
    assert left == [], left
    stale = [k for k in SAME_AS_ENGLISH[loc] if CATALOGS[loc][k] != EN[k]]
    assert stale == [], f"no longer the same as English, take them off the list: {stale}"


def test_pt_pt_is_its_own_where_european_portuguese_differs() -> None:
    br, pt = CATALOGS["pt-BR"], CATALOGS["pt-PT"]
    assert "compartilhar" in br["seats.share_label"] and "partilhar" in pt["seats.share_label"]
    assert "rodada" in br["inbox.round"] and "ronda" in pt["inbox.round"]
    assert "curinga" == br["card.joker"] and "jóquer" == pt["card.joker"]
    assert "usando" in br["step.power"] and "a usar" in pt["step.power"]  # gerunds
    gerunds = {w for m in pt.values() for f in _forms(m) for w in re.findall(r"\w+ndo\b", f)} - {"quando", "Quando"}
    assert gerunds == set(), gerunds


def test_every_key_the_client_names_is_in_the_catalogs() -> None:
    named = set()
    for module in (STATIC / "js").glob("*.js"):
        named |= set(re.findall(r"\btn?\(\"([\w.-]+)\"", module.read_text(encoding="utf-8")))
    named |= set(re.findall(r'data-i18n(?:-label)?="([\w.-]+)"', (STATIC / "index.html").read_text(encoding="utf-8")))
    assert named and named - set(EN) == set(), sorted(named - set(EN))


def test_every_problem_type_has_words_in_every_locale() -> None:
    assert {f"problem.{slug}" for slug in PROBLEMS} <= set(EN)


def test_every_option_and_named_value_of_every_game_has_words() -> None:
    from domain import rules
    from service.usecases.lobby import available

    for name in available():
        for option in rules.get(name).options:
            schema = option.schema()
            assert f"opt.{option.key}" in EN, (name, option.key)
            for value in schema.get("enum") or []:
                words = isinstance(value, str) and re.search(r"[A-Za-z]", value)  # not a number
                assert not words or f"optval.{value}" in EN, (name, option.key, value)
