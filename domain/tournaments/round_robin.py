"""The round robin: a schedule fixed in advance from the players' order.

At two seats it is the circle method: the first player stays put, the others turn one place a
round, and the players facing each other across the circle meet. With an odd count a blank joins
the circle and whoever faces it has the bye. Every pair meets exactly once in ``n - 1`` rounds
(``n`` when odd, one bye each). Seats follow Berger's tables: the player on the circle's left
takes seat 0, the fixed player every other round, so everyone has seat 0 in half their games
(to within half a game).

At three seats and more the schedule is greedy, round after round, with the Swiss's seating
on the players' given order: the fewest byes so far sit out (among those, whoever has the fewest
players still to meet, then the last in the order), and the rest are split into the tables with
the fewest repeated meetings, spread out (see ``seating``), the first such split in the order.
The schedule lasts until every pair has met at least once; ``round_robin_rounds`` plays it out to
count. "As evenly as possible" is measured by the spread over those rounds: the most meetings of
any pair minus the fewest (the fewest being at least 1). The tests hold the spread to at most 3
at three and four seats up to 12 players (4 at five seats); docs/tournaments.md lists the rounds
and spreads. A round number past the schedule's end starts it again (a double round robin).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from domain.tournaments.model import Pairing
from domain.tournaments.seating import seat

#: the greedy schedule stops here even if some pair has not met (it never comes to that for the
#: sizes a tournament has; the tests check coverage up to 16 players)
MOST_ROUNDS = 200


def round_robin_rounds(player_count: int, seats_per_table: int) -> int:
    """How many rounds the schedule takes for every pair to meet (at two seats, exactly once)."""
    _check(player_count, seats_per_table)
    if player_count < seats_per_table:
        return 0
    if seats_per_table == 2:
        return player_count - 1 if player_count % 2 == 0 else player_count
    return len(_greedy_schedule(player_count, seats_per_table))


def round_robin_pairing(players: Sequence[str], seats_per_table: int, round_number: int) -> Pairing:
    """Round ``round_number`` (from 1) of the schedule for ``players`` in their given order."""
    if round_number < 1:
        raise ValueError("rounds count from 1")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    count = len(players)
    rounds = round_robin_rounds(count, seats_per_table)
    if rounds == 0:
        return Pairing(tables=(), byes=tuple(players))
    schedule = _circle(count) if seats_per_table == 2 else _greedy_schedule(count, seats_per_table)
    tables, byes = schedule[(round_number - 1) % rounds]
    return Pairing(tables=tuple(tuple(players[i] for i in t) for t in tables),
                   byes=tuple(players[i] for i in byes))


#: a round by positions in the players' order: its tables, then its byes
Round = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
Schedule = tuple[Round, ...]


@cache
def _circle(count: int) -> Schedule:
    ring: list[int | None] = list(range(count)) + ([None] if count % 2 else [])
    size = len(ring)
    rounds = []
    for number in range(size - 1):
        pairs = [(ring[i], ring[size - 1 - i]) for i in range(size // 2)]
        if number % 2:  # the fixed player alternates seats; the others alternate by turning
            pairs[0] = pairs[0][::-1]
        tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
        byes = tuple(p for a, b in pairs for p in (a, b) if p is not None and None in (a, b))
        rounds.append((tables, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(rounds)


@cache
def _greedy_schedule(count: int, size: int) -> Schedule:
    order = [str(i) for i in range(count)]  # seating works on names; the schedule on positions
    unmet = {frozenset(pair) for pair in combinations(order, 2)}
    history: list[tuple[tuple[str, ...], ...]] = []
    byes_so_far: Counter[str] = Counter()
    rounds: list[Round] = []
    while unmet and len(rounds) < MOST_ROUNDS:
        left = Counter(p for pair in unmet for p in pair)
        tables, byes = seat(order, size, history, byes_so_far, left)
        history.append(tables)
        byes_so_far.update(byes)
        unmet -= {frozenset(pair) for t in tables for pair in combinations(t, 2)}
        rounds.append(_positions(tables, byes))
    return tuple(rounds)


def _positions(tables: Sequence[Sequence[str]], byes: Sequence[str]) -> Round:
    return tuple(tuple(int(p) for p in t) for t in tables), tuple(int(p) for p in byes)


def _check(player_count: int, seats_per_table: int) -> None:
    if seats_per_table < 2:
        raise ValueError("a table has at least 2 seats")
    if player_count < 0:
        raise ValueError("no negative player counts")
