"""Players' handles on the cluster: unique whatever the case across all players (a unique index
of the reference table `players`), refused as on one server."""
from tests.service.lifecycle.conftest import clock, live  # noqa: F401 - the fixtures of that test
from tests.service.lifecycle.test_accounts import (  # noqa: F401 - the same test, on the cluster
    test_handles_are_unique_whatever_the_case_and_validated)
