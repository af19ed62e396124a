"""The gettext catalogs of the e-mails and pushes: ``locales/<ll_CC>/LC_MESSAGES/messages.po``,
one per locale a player may choose (``service.model.account.LOCALES``).

The ``.po`` files are the only source: each is compiled when first used (Babel reads it and
writes its ``.mo`` to memory), so there is no build step and no compiled file that could drift
from its source; it costs a few milliseconds once per process. Message ids are keys
(``your_turn.subject``), not English text: the English catalog is a translation like the
others, and a test checks that every catalog has every key with the same placeholders.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

DIRECTORY = Path(__file__).parent / "locales"
LOCALES = ("en", "es", "pt-BR", "pt-PT")  # as service.model.account.LOCALES: BCP 47 tags
DEFAULT = "en"
_lock = threading.Lock()


def best(locale: str | None) -> str:
    """The catalog's locale for a player's choice (any case), else English."""
    wanted = (locale or "").replace("_", "-").lower()
    return next((x for x in LOCALES if x.lower() == wanted), DEFAULT)


def po_path(locale: str) -> Path:
    return DIRECTORY / locale.replace("-", "_") / "LC_MESSAGES" / "messages.po"


def catalog(locale: str) -> Catalog:
    """The catalog as written (the tests read every message of it)."""
    with open(po_path(locale), "rb") as f:
        return read_po(f, locale=locale.replace("-", "_"))


@lru_cache(maxsize=len(LOCALES))
def _compiled(locale: str) -> Translations:
    buffer = BytesIO()
    write_mo(buffer, catalog(locale))
    buffer.seek(0)
    return Translations(buffer, domain="messages")


def translations(locale: str) -> Translations:
    """The locale's translations (English behind them, should a key be missing)."""
    with _lock:  # compiled once, whichever sender thread asks first
        found = _compiled(best(locale))
        if best(locale) != DEFAULT and not getattr(found, "_fallback", None):
            found.add_fallback(_compiled(DEFAULT))
        return found
