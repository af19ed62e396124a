"""Players' accounts, called as use cases: a registration's token authenticates, a token
issued beside it too, and a revoked one is refused at once, by this worker and by another
that remembered it."""
from __future__ import annotations

import pytest

from service.model.problems import Problem
from service.usecases import accounts, tokens
from service.usecases.dependencies import Dependencies
from tests.service.usecases.conftest import dependencies


def test_a_registered_player_authenticates_with_the_token_shown_once(deps: Dependencies) -> None:
    made = accounts.register_player(deps, "Ann Lee", "ann_lee")
    assert accounts.authenticate(deps, made["token"]) == (made["id"], "Ann Lee")
    assert accounts.authenticate(deps, made["token"] + "x") is None
    assert accounts.me(deps, made["id"])["handle"] == "ann_lee"
    with pytest.raises(Problem) as taken:
        accounts.register_player(deps, "Another Ann", "ANN_LEE")
    assert taken.value.slug == "handle-taken"


def test_a_revoked_token_is_refused_by_every_worker_and_the_others_still_work(deps: Dependencies,
                                                                              database_url: str) -> None:
    made = accounts.register_player(deps, "ann")
    laptop = tokens.issue(deps, made["id"], "laptop")
    other_worker = dependencies(database_url)
    try:
        assert accounts.authenticate(other_worker, laptop["token"]) == (made["id"], "ann")  # it remembers it now
        tokens.revoke(deps, made["id"], laptop["id"])
        assert accounts.authenticate(deps, laptop["token"]) is None
        assert accounts.authenticate(other_worker, laptop["token"]) is None
        assert accounts.authenticate(other_worker, made["token"]) == (made["id"], "ann")
    finally:
        other_worker.close()
    listed = tokens.listing(deps, made["id"], None)["tokens"]
    assert [t["label"] for t in listed] == ["registration"]
    with pytest.raises(Problem) as gone:
        tokens.revoke(deps, made["id"], laptop["id"])
    assert gone.value.slug == "not-found"
