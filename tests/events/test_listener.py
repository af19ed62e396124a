"""The LISTEN loop: hints reach ``on_hint`` by stream, and a stop does not wait for its poll."""
from __future__ import annotations

import time

import psycopg

from events.notify import CHANNEL, Listener


def _heard(heard: list[str | None], wanted: str, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while wanted not in heard and time.monotonic() < deadline:
        time.sleep(0.01)
    return wanted in heard


def test_a_hint_names_its_stream_and_an_empty_hint_names_none(database_url: str) -> None:
    heard: list[str | None] = []
    listener = Listener(database_url, heard.append, poll=30)
    try:
        assert listener.connected.wait(5)
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, ",s1:3,s2:4"))
        assert _heard(heard, "s2")
        assert heard == [None, "s1", "s2"]  # the connect's wake-everyone, then each stream once
    finally:
        listener.close()


def test_close_stops_the_loop_without_waiting_for_its_poll(database_url: str) -> None:
    listener = Listener(database_url, lambda _: None, poll=30)
    assert listener.connected.wait(5)
    listener.close()  # joins for at most 5 s, far less than the 30 s poll
    assert not listener._thread.is_alive()
