"""Reading a game's events, called as a use case: each seat sees the cards it was shown and
no other seat's, a spectator sees none, and every reader sees the same versions."""
from __future__ import annotations

import uuid

import pytest

from service.model.problems import Problem
from service.usecases import reading
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import two_seat_game


def test_each_seat_reads_the_cards_it_was_shown_and_nobody_elses(deps: Dependencies) -> None:
    gid, ann, bob = two_seat_game(deps)
    name, seat = reading.reader(deps, gid, ann[0])
    assert (name, seat, reading.reader(deps, gid, None)) == ("pedro", 0, ("pedro", None))
    pages = {s: reading.events_page(deps, gid, s, 0, 100, name)[0] for s in (None, 0, 1)}
    shown = {s: [e for e in page["events"] if e["type"] == "CardsShown"] for s, page in pages.items()}
    assert shown[None] == []
    assert shown[0] and all(e["data"]["seat"] == 0 for e in shown[0])
    assert shown[1] and all(e["data"]["seat"] == 1 for e in shown[1])
    head = deps.store.head(gid)
    for page in pages.values():
        assert (page["version"], page["next_after"], page["more"]) == (head[0], head[0], False)


def test_a_page_starts_after_the_version_asked_for_and_says_when_more_follow(deps: Dependencies) -> None:
    gid, _, _ = two_seat_game(deps)
    page, found = reading.events_page(deps, gid, None, 1, 2, "pedro")
    assert found and [e["version"] for e in page["events"]] == [2, 3] and page["more"]
    page, found = reading.events_page(deps, gid, None, deps.store.head(gid)[0], 10, "pedro")
    assert not found and page["events"] == []


def test_the_events_of_a_game_that_does_not_exist_are_not_found(deps: Dependencies) -> None:
    with pytest.raises(Problem) as missing:
        reading.events_page(deps, uuid.uuid4(), None, 0, 10, "pedro")
    assert missing.value.slug == "not-found"
