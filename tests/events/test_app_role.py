"""The service's login: services starting at once on one PostgreSQL server all get it."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from events.db import connect
from events.roles import APP_ROLE, service_url


def _starts(database_url: str) -> list[str]:
    return [service_url(database_url) for _ in range(6)]


def test_services_starting_at_once_on_one_server_all_set_the_login(database_url: str) -> None:
    # the role belongs to the whole server: ALTER ROLEs from several processes at once
    # collide in PostgreSQL ("tuple concurrently updated"); each start must still succeed
    with ProcessPoolExecutor(6, mp_context=multiprocessing.get_context("fork")) as pool:
        urls = [u for batch in pool.map(_starts, [database_url] * 6) for u in batch]
    assert len(urls) == 36
    with connect(urls[0]) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (APP_ROLE,)
