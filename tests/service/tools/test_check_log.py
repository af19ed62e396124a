"""The reliability check's log checker sees what it must: an acknowledged command missing from
the log, a command applied twice, a gap or a broken chain, a window won twice."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from service.tools.check.harness import Ack, held_against


def _event(version: int, player: str | None, key: str | None, type_: str = "Played",
           data: dict[str, Any] | None = None) -> SimpleNamespace:
    return SimpleNamespace(version=version, type=type_, data=data or {},
                           metadata={"player": player, "command_id": key, "actor": None if key is None else 0})


def test_the_log_checker_sees_a_loss_a_duplicate_a_gap_and_a_window_won_twice() -> None:
    claim = {"outcome": "correct", "window_id": 4}
    events = [_event(1, None, None, "RoundDealt"), _event(2, "ann", "k1"), _event(3, "ann", "k1"),
              _event(4, "bob", "k2", "ClaimResolved", claim), _event(5, "ann", "k1"),
              _event(7, "cat", "k3", "ClaimResolved", claim), _event(8, None, None, "SecretRevealed")]
    acks = [Ack("g", "ann", "k1", 3), Ack("g", "bob", "k2", 4), Ack("g", "cat", "k3", 8), Ack("g", "dan", "k9", 6)]
    figures = held_against("g", events, acks, None, {("cat", "k3")})
    assert figures.found == 3 and len(figures.lost) == 1 and "k9" in figures.lost[0]
    assert len(figures.duplicated) == 1 and "k1" in figures.duplicated[0]  # versions 2-3, then 5 again
    assert len(figures.gaps) == 1 and figures.windows == 1 and len(figures.won_twice) == 1

    clean = [_event(1, None, None, "RoundDealt"), _event(2, "ann", "k1"), _event(3, "bob", "k2")]
    figures = held_against("g", clean, [Ack("g", "ann", "k1", 2), Ack("g", "bob", "k2", 3)], None, set())
    assert figures.found == 2 and not figures.lost and not figures.duplicated and not figures.gaps
    assert held_against("g", clean, [], 2, set()).gaps, "a broken hash chain is a gap"
