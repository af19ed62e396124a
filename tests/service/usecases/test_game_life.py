"""A game's life around its rules, called as use cases: a resignation ends a game of two,
the other player wins, the secret is revealed, and nothing more is taken."""
from __future__ import annotations

import pytest

from service.model import fairness
from service.model.problems import Problem
from service.usecases import game_life
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import two_seat_game


def test_resigning_a_game_of_two_ends_it_with_the_other_player_winning(deps: Dependencies) -> None:
    gid, ann, bob = two_seat_game(deps)
    cur = game_life.resign(deps, gid, ann[0])
    game = cur.game
    assert (game.status, game.ended, game.winners(), game.resigned) == ("finished", "concluded", (1,), (0,))
    assert game.secret is not None and fairness.secret_commitment(bytes.fromhex(game.secret)) == game.secret_commitment
    events = deps.store.read(gid)
    assert [e.type for e in events[-3:]] == ["SeatResigned", "GameConcluded", "SecretRevealed"]
    assert events[-3].metadata["command"] == {"type": "Resign"} and events[-3].metadata["player"] == ann[0]
    with pytest.raises(Problem) as again:
        game_life.resign(deps, gid, bob[0])
    assert again.value.slug == "game-not-active"
    assert deps.store.head(gid)[0] == cur.version


def test_only_a_seated_player_may_resign(deps: Dependencies) -> None:
    gid, _, _ = two_seat_game(deps)
    with pytest.raises(Problem) as stranger:
        game_life.resign(deps, gid, "00000000-0000-4000-8000-000000000000")
    assert stranger.value.slug == "forbidden"
