"""The e-mails' and pushes' catalogs (service/adapters/rendering/locales) and their rendering:
every locale has every message with the same placeholders and no English left in the others;
dates on the reader's clock in their language."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from service.adapters.rendering.catalogs import LOCALES, best, catalog, translations
from service.adapters.rendering.render import Reader, Renderer
from service.model.account import LOCALES as ACCOUNT_LOCALES

PLACEHOLDER = re.compile(r"%\((\w+)\)s")
NOW = datetime(2026, 7, 1, 12, 0, tzinfo=timezone.utc)
GAME = {"id": "0b6c3c1e-6f3d-4d7e-9a55-8f2b8d7a5c11", "name": "Mesa <del> viernes", "ruleset": "corte",
        "path": "/#/game/0b6c3c1e-6f3d-4d7e-9a55-8f2b8d7a5c11"}


def _messages(locale: str) -> dict[str, tuple[str, ...]]:
    out = {}
    for m in catalog(locale):
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        out[key] = tuple(m.string) if isinstance(m.string, (tuple, list)) else (m.string,)
    return out


def test_the_catalogs_are_the_locales_a_player_may_choose() -> None:
    assert LOCALES == ACCOUNT_LOCALES
    assert best("PT-br") == "pt-BR" and best(None) == "en" and best("fr") == "en"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_catalog_has_every_message_translated_with_the_same_placeholders(locale: str) -> None:
    english, mine = _messages("en"), _messages(locale)
    assert set(mine) == set(english)
    for key, forms in mine.items():
        assert all(forms), f"{locale}: {key} is not translated"
        wanted = set(PLACEHOLDER.findall(english[key][-1]))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == wanted, f"{locale}: {key} has other placeholders"
            assert "%" not in PLACEHOLDER.sub("", form), f"{locale}: {key} has a stray %"


@pytest.mark.parametrize("locale", [x for x in LOCALES if x != "en"])
def test_no_english_is_left_in_the_other_catalogs(locale: str) -> None:
    english, mine = _messages("en"), _messages(locale)
    left = [key for key, forms in mine.items() if set(forms) & set(english[key])]
    assert left == [], f"{locale} still says in English: {left}"


def test_european_portuguese_is_its_own_where_it_differs() -> None:
    brazil, portugal = _messages("pt-BR"), _messages("pt-PT")
    differs = [k for k in brazil if brazil[k] != portugal[k]]
    assert len(differs) >= len(brazil) // 2
    assert "você" not in " ".join(f for forms in portugal.values() for f in forms)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalogs_compile_when_loaded_and_every_key_renders_as_text(locale: str) -> None:
    t = translations(locale)
    for key in _messages("en"):
        assert t.gettext(key) != key


def test_a_turn_renders_in_the_readers_language_and_time_zone_escaped_in_html() -> None:
    renderer = Renderer("https://play.example")
    args = {"game": GAME, "awaiting": ["Ana"], "deadline": "2026-07-02T18:00:00Z"}
    mail = renderer.mail("your_turn", args, Reader("es", "America/Argentina/Buenos_Aires", NOW))
    assert mail.language == "es" and mail.subject == "Te toca jugar en Mesa <del> viernes"
    assert "jueves, 2 de julio de 2026 15:00" in mail.text  # 18:00 UTC is 15:00 in Buenos Aires
    assert "(dentro de 30 horas)" in mail.text
    assert "Mesa &lt;del&gt; viernes" in mail.html and "<del>" not in mail.html
    assert 'href="https://play.example/#/game/0b6c3c1e-6f3d-4d7e-9a55-8f2b8d7a5c11"' in mail.html
    portugal = renderer.mail("your_turn", args, Reader("pt-PT", "Europe/Lisbon", NOW))
    assert "quinta-feira, 2 de julho de 2026 19:00" in portugal.text and portugal.language == "pt-PT"
    english = renderer.push("your_turn", args, Reader(None, "UTC", NOW))
    assert english.title == "Your move: Mesa <del> viernes" and "Waiting for: Ana" in english.body


def test_a_digest_counts_its_games_in_the_readers_plural() -> None:
    renderer = Renderer("https://play.example")
    one = {"games": [{"game": GAME, "seat": 0, "awaiting": ["Ana"], "deadline": None}]}
    two = {"games": one["games"] * 2}
    assert renderer.mail("digest", one, Reader("pt-BR", "UTC", NOW)).subject == "1 partida espera por você"
    assert renderer.mail("digest", two, Reader("pt-BR", "UTC", NOW)).subject == "2 partidas esperam por você"
    assert renderer.mail("digest", two, Reader("en", "UTC", NOW)).subject == "2 games wait for you"


def test_verification_and_sign_in_e_mails_carry_their_links() -> None:
    renderer = Renderer("https://play.example/")
    verify = renderer.mail("verify_email", {"address": "a@example.org", "expires_at": "2026-07-02T12:00:00Z"},
                           Reader("en", "UTC", NOW), secret="T0K3N")
    assert "https://play.example/verify-email?token=T0K3N" in verify.text
    code = renderer.mail("signin_code", {"expires_at": "2026-07-01T12:15:00Z"}, Reader("es", "UTC", NOW),
                         secret="ABCDE-FGHIJ")
    assert "ABCDE-FGHIJ" in code.text and "https://play.example/signin?code=ABCDE-FGHIJ" in code.html
