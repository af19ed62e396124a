"""Players' handles on the cluster: unique whatever the case across all players (a unique index
of the reference table `players`), refused as on one server; and a revoked token refused by
another worker at once (each request reads the reference table `player_tokens`)."""
import pytest

from tests.service.http.lifecycle.conftest import clock, live  # noqa: F401 - the fixtures of that test
from tests.service.http.lifecycle.test_accounts import (  # noqa: F401 - the same tests, on the cluster
    test_a_token_revoked_through_one_worker_gets_401_from_every_other_at_once,
    test_handles_are_unique_whatever_the_case_and_validated)


@pytest.fixture
def database_url(coordinator: str) -> str:
    """The session's shared distributed database (a fresh one costs a migration and a
    distribution on three nodes): the test's players are its own."""
    return coordinator
