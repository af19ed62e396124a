"""``common.tiebreak``: who wins when several seats are level for the game."""
from __future__ import annotations

from collections.abc import Sequence


def break_tie(tied: Sequence[int], last_round: Sequence[int], tiebreak: str) -> tuple[int, ...] | None:
    """The winners among ``tied`` (the seats level for the win), or ``None`` to play another round.

    ``shared``: all of them; ``play_another_round``: ``None``; ``fewest_points_last_round``:
    those with the fewest points in ``last_round`` (still shared if they are level there too).
    """
    if len(tied) == 1 or tiebreak == "shared":
        return tuple(tied)
    if tiebreak == "play_another_round":
        return None
    best = min(last_round[p] for p in tied)
    return tuple(p for p in tied if last_round[p] == best)
