"""The Swiss pairing: each round seats players of like standing together.

The caller gives the players best first (by standings, then rating). Byes go first: when the
players do not fill whole tables, the ``len(order) % seats_per_table`` players left out are those
with the fewest byes so far, the lowest in the order first, so a bye comes round to the bottom of
the standings and nobody has a second before everyone below them has had one. The rest sit at
tables with as few repeated meetings as any seating allows, and among those seatings the one that
keeps the order together: the leader with the next best players, and so on down (the Monrad way of
pairing neighbours, which suits tables of more than two seats). Each table then gives its seats
so that nobody takes a seat they have had more often than needed. See ``seating`` for the search.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.tournaments.model import Pairing
from domain.tournaments.seating import seat


def swiss_pairing(order: Sequence[str], seats_per_table: int, history: Sequence[Pairing]) -> Pairing:
    """The next Swiss round for ``order`` (best first), given the rounds already paired."""
    byes_so_far = Counter(p for past in history for p in past.byes)
    tables, byes = seat(order, seats_per_table, [past.tables for past in history], byes_so_far)
    return Pairing(tables=tables, byes=byes)
