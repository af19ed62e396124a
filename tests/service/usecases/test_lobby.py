"""Opening and joining a game, called as use cases: the creator takes a seat, the last seat
taken deals, and what cannot be joined is refused as a problem."""
from __future__ import annotations

import uuid

import pytest

from service.model.problems import Problem
from service.usecases import lobby
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import player


def test_a_game_opens_with_its_creator_seated_and_deals_when_the_last_seat_is_taken(deps: Dependencies) -> None:
    ann, bob, cat = player(deps, "ann"), player(deps, "bob"), player(deps, "cat")
    cur, seat = lobby.create_game(deps, ann, "least-score", 3, {}, "Friday", True, None)
    gid = uuid.UUID(cur.game.id)
    assert (seat, cur.game.status, cur.game.name, cur.version) == (0, "open", "Friday", 2)  # opened, seat taken

    cur, seat = lobby.join_game(deps, gid, bob, None)
    assert (seat, cur.game.status, cur.game.rules) == (1, "open", None)
    cur, seat = lobby.join_game(deps, gid, cat, None)
    assert (seat, cur.game.status) == (2, "active")
    assert cur.game.rules is not None and [s.player_id for s in cur.game.seats if s] == [ann[0], bob[0], cat[0]]
    # the deal is in the log, after the last seat: what a cold reader folds is what the join answered
    assert deps.store.head(gid)[0] == cur.version > 4
    assert deps.games.load_at(gid, cur.version).status == "active"


def test_a_seated_player_joining_again_and_a_full_game_are_refused(deps: Dependencies) -> None:
    ann, bob, cat = player(deps, "ann"), player(deps, "bob"), player(deps, "cat")
    cur, _ = lobby.create_game(deps, ann, "pedro", 2, {}, None, True, None)
    gid = uuid.UUID(cur.game.id)
    with pytest.raises(Problem) as seated:
        lobby.join_game(deps, gid, ann, None)
    assert (seated.value.slug, seated.value.extra) == ("already-seated", {"seat": 0})
    lobby.join_game(deps, gid, bob, None)
    with pytest.raises(Problem) as full:
        lobby.join_game(deps, gid, cat, None)
    assert full.value.slug == "game-not-open"


def test_an_unlisted_game_is_joined_with_its_invite_code_only(deps: Dependencies) -> None:
    ann, bob = player(deps, "ann"), player(deps, "bob")
    unlisted = lobby.Opening(visibility="unlisted")
    cur, _ = lobby.create_game(deps, ann, "pedro", 2, {}, None, True, None, opening=unlisted)
    gid = uuid.UUID(cur.game.id)
    with pytest.raises(Problem) as stranger:
        lobby.join_game(deps, gid, bob, None, body={"invite_code": "not-the-code"})
    assert stranger.value.slug == "not-found"  # a stranger learns nothing of an unlisted game
    code = lobby.invite_code_for(deps, gid, ann[0])
    _, seat = lobby.join_game(deps, gid, bob, None, body={"invite_code": code.upper()})
    assert seat == 1


def test_a_creation_retried_with_its_key_is_the_same_game(deps: Dependencies) -> None:
    ann = player(deps, "ann")
    body = {"ruleset": "pedro", "seats": 2}
    first, _ = lobby.create_game(deps, ann, "pedro", 2, {}, None, True, None, "key-1", body)
    again, seat = lobby.create_game(deps, ann, "pedro", 2, {}, None, True, None, "key-1", body)
    assert (again.game.id, again.version, seat) == (first.game.id, first.version, 0)
    with pytest.raises(Problem) as reused:
        lobby.create_game(deps, ann, "pedro", 2, {}, None, True, None, "key-1", {**body, "seats": 3})
    assert reused.value.slug == "idempotency-key-reused"


def test_options_and_seats_a_ruleset_does_not_allow_are_refused_before_anything_is_stored(deps: Dependencies) -> None:
    ann = player(deps, "ann")
    with pytest.raises(Problem) as seats:
        lobby.create_game(deps, ann, "pedro", 11, {}, None, True, None)
    with pytest.raises(Problem) as options:
        lobby.create_game(deps, ann, "pedro", 2, {"no_such_option": 1}, None, True, None)
    assert (seats.value.slug, options.value.slug) == ("validation", "invalid-options")
