"""The server's VAPID key pair: made once, kept, the same for every process."""
from __future__ import annotations

from events import reach
from service.adapters.push import VapidKey
from service.usecases.dependencies import Dependencies
from service.usecases.push_keys import server_key
from tests.service.usecases.conftest import dependencies


def test_the_first_key_is_kept_and_every_process_reads_it_back(deps: Dependencies, database_url: str) -> None:
    assert reach.vapid_public(deps.db) is None
    key = server_key(deps)
    assert reach.vapid_public(deps.db) == key.public_key
    assert server_key(deps) is key  # remembered for the app's life
    other = dependencies(database_url)  # another process, starting later
    try:
        again = server_key(other)
    finally:
        other.close()
    assert again.public_key == key.public_key
    assert again.stored() == key.stored()
    assert isinstance(VapidKey.from_stored(*key.stored()), VapidKey)
