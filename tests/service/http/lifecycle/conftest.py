"""Each test of a game's life gets its own server, on a clock the test moves; every answer
it gives is checked against openapi.yaml."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.service.contract_watch import answers_checked
from tests.service.helpers import Live
from tests.service.http.lifecycle.clocked import Clock, clocked


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def live(database_url: str, clock: Clock) -> Iterator[Live]:
    for server in clocked(database_url, clock):
        with answers_checked(server.url) as wrong:
            yield server
        assert not wrong, "answers that break the contract:\n" + "\n".join(dict.fromkeys(wrong))
