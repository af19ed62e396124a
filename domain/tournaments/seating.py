"""Seating a round, shared by the Swiss and the round robin: who sits out, which players share
a table, and who takes which seat.

Tables are formed by an exact search: among all ways to split the players into tables of the
given size, the ones with the fewest repeated meetings (a pair that met ``t`` times before costs
``t + 1`` to seat together again, so repeats are avoided first and then spread out),
and among those the one closest to the given order. Closest means: the first player in the order
opens the first table with the next players in the order, as far as repeats allow, then the first
player left opens the next table, and so on (the lexicographically first split). The search is
a depth-first branch and bound with a memo of the player sets already solved; a round that would
need more than ``SEARCH_LIMIT`` steps (far beyond any tournament of a few dozen players) takes the
greedy seating instead, which is deterministic too.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations, permutations

#: steps of the exact search before it gives way to the greedy seating
SEARCH_LIMIT = 10_000
#: above this many seats, seats follow the table's order instead of trying every permutation
SEAT_PERMUTATIONS_UP_TO = 6

Tables = tuple[tuple[int, ...], ...]


def meetings(tables: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """How many times each pair of players sat at one table."""
    counts: Counter[frozenset[str]] = Counter()
    for table in tables:
        counts.update(frozenset(pair) for pair in combinations(table, 2))
    return counts


def seat_counts(tables: Iterable[Sequence[str]]) -> Counter[tuple[str, int]]:
    """How many times each player sat in each seat."""
    return Counter((p, seat) for table in tables for seat, p in enumerate(table))


def pick_byes(order: Sequence[str], count: int, byes_so_far: Counter[str],
              still_to_meet: Mapping[str, int] | None = None) -> tuple[str, ...]:
    """``count`` players to sit out: the fewest byes so far first, then (when given) those with
    the fewest players ``still_to_meet``, then the lowest in ``order``."""
    left = still_to_meet or {}
    lowest_first = sorted(range(len(order)), key=lambda i: (byes_so_far[order[i]], left.get(order[i], 0), -i))
    return tuple(order[i] for i in sorted(lowest_first[:count]))


def group(order: Sequence[str], size: int, met: Counter[frozenset[str]]) -> tuple[tuple[str, ...], ...]:
    """Split ``order`` (a multiple of ``size`` players) into tables with the fewest repeated
    meetings, closest to the order; each table lists its players in the order's order."""
    if len(order) % size:
        raise ValueError(f"{len(order)} players do not fill tables of {size}")
    cost = [[_repeat_cost(met[frozenset((a, b))]) if a != b else 0 for b in order] for a in order]
    search = _Search(cost, size)
    everyone = (1 << len(order)) - 1
    tables = search.greedy(everyone)
    try:
        found = search.solve(everyone, search.total(tables))
        if found is not None:
            tables = found[1]
    except _TooLong:
        pass  # the greedy seating stands
    return tuple(tuple(order[i] for i in table) for table in tables)


def assign_seats(table: Sequence[str], seats_before: Counter[tuple[str, int]]) -> tuple[str, ...]:
    """The table's players in seat order: each as seldom as possible in a seat they had before
    (summed over the table), ties to the table's own order. Seat 0 often moves first, and with
    duplicate boards a seat is what a player is compared on, so seats are shared out."""
    if len(table) > SEAT_PERMUTATIONS_UP_TO:
        return tuple(table)
    return min(permutations(table), key=lambda seating: sum(seats_before[p, s] for s, p in enumerate(seating)))


def seat(order: Sequence[str], size: int, history: Sequence[Sequence[Sequence[str]]], byes_so_far: Counter[str],
         still_to_meet: Mapping[str, int] | None = None) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """A whole round: the byes, then the tables (formed from the rest, seats assigned)."""
    if size < 2:
        raise ValueError("a table has at least 2 seats")
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice")
    byes = pick_byes(order, len(order) % size, byes_so_far, still_to_meet)
    playing = [p for p in order if p not in byes]
    past = [table for tables in history for table in tables]
    tables = group(playing, size, meetings(past))
    seats_before = seat_counts(past)
    return tuple(assign_seats(t, seats_before) for t in tables), byes


def _repeat_cost(times_met: int) -> int:
    """A pair that never met costs nothing; one that met costs 1 for meeting again plus 1 for each
    time before, so the search first avoids repeats, then spreads those it cannot avoid (a pure
    count of repeats would seat one pair together again and again; measured on round robins of
    4 to 16 players, this weighting also needs the fewest rounds for every pair to meet)."""
    return times_met + 1 if times_met else 0


class _TooLong(Exception):
    """The exact search passed ``SEARCH_LIMIT`` steps."""


class _Search:
    """Players are indices into the order (0 the best); a set of players is a bit mask."""

    def __init__(self, cost: list[list[int]], size: int) -> None:
        self.cost, self.size, self.steps = cost, size, 0
        self.met = [sum(1 << j for j, c in enumerate(row) if c) for row in cost]
        self.solved: dict[int, tuple[int, Tables]] = {}  # the best split of these players
        self.failed: dict[int, int] = {}  # no split of these players costs this little or less

    def table_cost(self, table: Sequence[int]) -> int:
        return sum(self.cost[a][b] for a, b in combinations(table, 2))

    def total(self, tables: Tables) -> int:
        return sum(self.table_cost(t) for t in tables)

    def lower_bound(self, mask: int) -> int:
        """Each player with fewer than ``size - 1`` unmet players left must meet again that many
        times; a repeat involves two players, so half the sum (rounded up) is a floor."""
        short = 0
        for p in _members(mask):
            unmet = (mask & ~self.met[p] & ~(1 << p)).bit_count()
            short += max(0, self.size - 1 - unmet)
        return (short + 1) // 2

    def greedy(self, mask: int) -> Tables:
        tables: list[tuple[int, ...]] = []
        while mask:
            first, *rest = _members(mask)
            table = min(((first, *mates) for mates in combinations(rest, self.size - 1)), key=self.table_cost)
            tables.append(table)
            mask &= ~sum(1 << p for p in table)
        return tuple(tables)

    def solve(self, mask: int, budget: int) -> tuple[int, Tables] | None:
        """The cheapest split of ``mask`` costing at most ``budget``, the first in the order
        among equals, or ``None`` if every split costs more."""
        if not mask:
            return 0, ()
        if mask in self.solved:
            known = self.solved[mask]
            return known if known[0] <= budget else None
        floor = self.lower_bound(mask)
        if self.failed.get(mask, -1) >= budget or floor > budget:
            return None
        first, *rest = _members(mask)
        best: tuple[int, Tables] | None = None
        for mates in combinations(rest, self.size - 1):
            self.steps += 1
            if self.steps > SEARCH_LIMIT:
                raise _TooLong
            table = (first, *mates)
            here = self.table_cost(table)
            if here > budget:
                continue
            below = self.solve(mask & ~sum(1 << p for p in table), budget - here)
            if below is None:
                continue
            best = (here + below[0], (table, *below[1]))
            if best[0] == floor:
                break
            budget = best[0] - 1  # only a strictly cheaper split may replace the first one found
        if best is None:
            self.failed[mask] = max(self.failed.get(mask, -1), budget)
            return None
        self.solved[mask] = best
        return best


def _members(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found
