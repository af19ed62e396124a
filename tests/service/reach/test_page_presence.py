"""Nothing is e-mailed about a game while its player has a page open: the streams of a served
app record the pages they hold, and the e-mail sender (here another app's, as it may be
another process) reads them. A turn is held while the page is open and goes if the page
closes with the turn still the player's; a game's end seen on the page is not e-mailed."""
from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
import requests

from events import reach, reach_outbox
from service.usecases.reach_facts import PRESENCE_FRESH
from tests.service.helpers import Live, serve
from tests.service.reach.conftest import Reach

IMMEDIATE = {"email": {"turn": "immediate"}}


@pytest.fixture
def served(world: Reach) -> Iterator[Live]:
    """The service, serving streams on the test's clock."""
    yield from serve(world.deps.config.database_url, extra={"clock": world.clock})


def _pages(world: Reach, player: str) -> set[uuid.UUID | None]:
    return reach.open_pages(world.deps.db, [uuid.UUID(player)], world.clock() - PRESENCE_FRESH).get(
        uuid.UUID(player), set())


def _until(check: object, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


class _Page:
    """A page holding a stream: open once its answer has begun, closed by :meth:`stop`."""

    def __init__(self, url: str, token: str) -> None:
        self.answer = requests.get(url, headers={"Authorization": f"Bearer {token}"}, params={"max_seconds": 30},
                                   stream=True, timeout=10)
        self.status = self.answer.status_code

    def stop(self) -> None:
        self.answer.close()


def _stream(site: Live, world: Reach, player: str, path: str) -> _Page:
    return _Page(f"{site.url}{path}", world.tokens[player])


def _players(world: Reach) -> tuple[tuple[str, str], tuple[str, str], uuid.UUID, str, str]:
    ann = world.player("Ann", address="ann@example.org", settings=IMMEDIATE)
    bob = world.player("Bob", address="bob@example.org", settings=IMMEDIATE)
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    return ann, bob, gid, first, "ann@example.org" if first == ann[0] else "bob@example.org"


def test_a_turn_is_held_while_its_game_is_open_and_goes_when_the_page_closes(world: Reach, served: Live) -> None:
    _, _, gid, first, address = _players(world)
    stream = _stream(served, world, first, f"/v1/games/{gid}/events/stream")
    assert stream.status == 200 and _pages(world, first) == {gid}
    world.send_all()
    assert world.mails_to(address, "news") == []
    [row] = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert row.status == "pending" and row.due_at is not None and row.due_at > world.clock()

    stream.stop()
    assert _until(lambda: _pages(world, first) == set(), 10), "closing the stream closes the page"
    world.clock.move(minutes=1)
    world.send_all()
    [mail] = world.mails_to(address, "news")
    assert str(gid) in (mail.text() or "")


def test_any_page_of_the_player_holds_their_turn_and_a_dead_process_holds_nothing(world: Reach, served: Live) -> None:
    _, _, gid, first, address = _players(world)
    stream = _stream(served, world, first, "/v1/me/stream")
    assert _pages(world, first) == {None}
    world.send_all()
    assert world.mails_to(address, "news") == []
    # the process holding the page dies: its rows are not touched again, and go stale
    world.clock.move(seconds=PRESENCE_FRESH.total_seconds() + 61)
    assert _pages(world, first) == set()
    world.send_all()
    assert len(world.mails_to(address, "news")) == 1
    stream.stop()


def test_a_turn_played_while_the_page_was_open_is_never_emailed(world: Reach, served: Live) -> None:
    from service.usecases import playing, reading
    _, _, gid, first, address = _players(world)
    stream = _stream(served, world, first, f"/v1/games/{gid}/events/stream")
    world.send_all()
    _, view = reading.seat_view(world.deps, gid, first, lambda version: False)
    assert view is not None
    playing.run_command(world.deps, gid, first, view["legal_actions"][0], None, None, f"/v1/games/{gid}/commands")
    stream.stop()
    assert _until(lambda: _pages(world, first) == set(), 10)
    world.clock.move(minutes=1)
    world.send_all()
    mine = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert mine[0].status == "skipped" and mine[0].last_error == "no longer awaited"
