"""A live API server on loopback against its own fresh database (one per module)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.service.helpers import Live, serve


def _rulesets() -> list[str]:
    from service.games import available

    return available()


RULESETS = _rulesets()


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    url = db_factory.new()  # type: ignore[attr-defined]
    yield from serve(url)
