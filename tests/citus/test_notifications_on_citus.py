"""Notifications and webhooks on the cluster: a player's notifications live in the player's
shard, written in the transaction of the game's append on the game's node (sql/citus)."""
from collections.abc import Iterator

import pytest

from tests.service.conftest import watched
from tests.service.helpers import Live
from tests.service.http.test_notifications import *  # noqa: F401,F403 - the same tests, on the cluster

# no notification names a card: a property of what is notified, not of where it is stored;
# played for every ruleset by the suite on one server (the longest tests of the module)
del test_no_notification_names_a_card  # noqa: F821


@pytest.fixture(scope="module")
def live(coordinator: str) -> Iterator[Live]:
    """On the session's distributed database: these tests' players and games are their own."""
    yield from watched(coordinator)
