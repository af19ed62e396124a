"""A live API server on loopback against its own fresh database (one per module); every
answer it gives is checked against openapi.yaml."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.service.contract_watch import answers_checked
from tests.service.helpers import Live, serve


def _rulesets() -> list[str]:
    from service.usecases.lobby import available

    return available()


RULESETS = _rulesets()


def watched(url: str) -> Iterator[Live]:
    """A live server on ``url`` whose every answer is checked against openapi.yaml."""
    for server in serve(url):
        with answers_checked(server.url) as wrong:
            yield server
        assert not wrong, "answers that break the contract:\n" + "\n".join(dict.fromkeys(wrong))


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    yield from watched(db_factory.new())  # type: ignore[attr-defined]
