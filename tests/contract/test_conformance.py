"""``facedown conformance`` passes against facedown and fails against a server with a planted leak."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from service.tools.contract import conformance
from tests.sdk.conftest import Served, facedown_serve
from tests.service.helpers import Live, serve


def test_the_conformance_kit_passes_against_facedown_serve(served: Served) -> None:
    proc = subprocess.run([sys.executable, "-c", "from service.entrypoints.cli import main; main()", "conformance", served.url],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in ("corte", "cuatro-cartas", "pedro", "least-score"):
        for check in conformance.CHECKS:
            assert any(line.startswith(name) and check in line and " pass " in line
                       for line in proc.stdout.splitlines()), (name, check, proc.stdout)


def test_a_view_that_lists_more_legal_actions_than_a_few_hundred_fails_the_bound() -> None:
    views = [{"seat": 0, "version": 7, "legal_actions": [{"type": "Keep"}] * 19},
             {"seat": 1, "version": 9, "legal_actions": [{"type": "Keep"}] * 5121}]
    assert conformance.long_listings(views) == ["seat 1 at version 9: 5121 legal actions"]


def _leaky(view: Any) -> Any:
    """``service.model.views.view`` that also shows each seat the true first card of every rival layout."""
    def leaking(game: Any, version: int, head: bytes, seat: int | None, *args: Any) -> Any:
        out = view(game, version, head, seat, *args)
        table, state = out.get("table"), game.rules
        if table is not None and seat is not None and hasattr(state, "layouts"):
            for p, player in enumerate(table["players"]):
                lay = state.layouts[p]
                if p != seat and player["cards"] and lay.cards and lay.cards[0] is not None:
                    player["cards"][0] = dict(player["cards"][0], card=lay.cards[0])
        return out
    return leaking


@pytest.fixture
def leaky_server(db_factory: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[Live]:
    from service.usecases import playing, reading

    monkeypatch.setattr(reading, "view", _leaky(reading.view))
    monkeypatch.setattr(playing, "view", _leaky(playing.view))
    yield from serve(db_factory.new())  # type: ignore[attr-defined]


def test_the_conformance_kit_fails_against_a_server_that_leaks_a_card(leaky_server: Live) -> None:
    rows = conformance.run(leaky_server.url, ["corte"], seats=3, seed=2)
    by_check = {r.check: r for r in rows}
    assert not by_check["no unseen card"].ok and "never shown" in by_check["no unseen card"].detail
    assert not by_check["views match the audit"].ok
    assert by_check["chain"].ok  # the log itself is sound: the leak is in what was served
    assert "FAIL" in conformance.table(rows)


@pytest.fixture(scope="module")
def served(db_factory: object) -> Iterator[Served]:
    yield from facedown_serve(db_factory.new())  # type: ignore[attr-defined]
