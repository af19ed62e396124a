"""Players' handles on the cluster: unique whatever the case across all players (a unique index
of the reference table `players`), refused as on one server."""
import pytest

from tests.service.lifecycle.conftest import clock, live  # noqa: F401 - the fixtures of that test
from tests.service.lifecycle.test_accounts import (  # noqa: F401 - the same test, on the cluster
    test_handles_are_unique_whatever_the_case_and_validated)


@pytest.fixture
def database_url(coordinator: str) -> str:
    """The session's shared distributed database (a fresh one costs a migration and a
    distribution on three nodes): the test's players are its own."""
    return coordinator
