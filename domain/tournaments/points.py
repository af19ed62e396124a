"""What a round is worth to each player.

Without duplicate boards a table gives points by place: last 0, one more for each place above
(at four seats 3, 2, 1, 0). Tied seats share the places they cover: two seats tied for first at
four seats get (3 + 2) / 2 = 2.5 each. So every table hands out the same total, k(k - 1) / 2.

With a duplicate board every table of the round was dealt the same cards seat for seat, so a
seat is compared with the same seat at every other table, by place at its table and then by
final score (lower is better): 1 matchpoint for each table where that seat did worse, 0.5 for
each exact tie. With T tables each seat's matchpoints add up to T(T - 1) / 2 over the board.

A bye is worth the average: what the players seated that round earn on average, (k - 1) / 2
without duplicate, (T - 1) / 2 matchpoints with it. This is what bridge gives a pair that sits
out (an average board), and it neither rewards nor punishes the player left out. Chess Swiss
events often give a bye a whole point, a win, because there it falls on the lowest player, who
would usually lose; at tables of three or four a "win" would be a table's top, far too much for
sitting out.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from domain.tournaments.model import TableResult


def table_points(result: TableResult) -> dict[str, float]:
    """Points by place at one table, ties sharing the places they cover."""
    return {p: float(v) for p, v in exact_table_points(result).items()}


def board_matchpoints(tables: Sequence[TableResult]) -> dict[str, float]:
    """Matchpoints of every seat of one duplicate board, compared seat for seat across tables."""
    return {p: float(v) for p, v in exact_board_matchpoints(tables).items()}


def bye_points(seats_per_table: int, table_count: int, duplicate: bool) -> float:
    """A bye's worth in a round of ``table_count`` tables: the round's average."""
    return float(exact_bye_points(seats_per_table, table_count, duplicate))


def exact_table_points(result: TableResult) -> dict[str, Fraction]:
    _check(result)
    seats = len(result.players)
    by_place = sorted(range(seats), key=lambda s: result.ranks[s])
    points: dict[str, Fraction] = {}
    start = 0
    while start < seats:
        end = start
        while end < seats and result.ranks[by_place[end]] == result.ranks[by_place[start]]:
            end += 1
        # places start..end-1 (0 the best) are worth seats-1-start down to seats-end
        shared = Fraction(sum(seats - 1 - place for place in range(start, end)), end - start)
        points.update((result.players[s], shared) for s in by_place[start:end])
        start = end
    return points


def exact_board_matchpoints(tables: Sequence[TableResult]) -> dict[str, Fraction]:
    for result in tables:
        _check(result)
    if len({len(t.players) for t in tables}) > 1:
        raise ValueError("the tables of a board have different numbers of seats")
    points: dict[str, Fraction] = {}
    for here in tables:
        for seat, player in enumerate(here.players):
            mine = (here.ranks[seat], here.scores[seat])
            theirs = [(there.ranks[seat], there.scores[seat]) for there in tables if there is not here]
            points[player] = sum((Fraction(1) if mine < t else Fraction(1, 2) if mine == t else Fraction(0)
                                  for t in theirs), Fraction(0))
    return points


def exact_bye_points(seats_per_table: int, table_count: int, duplicate: bool) -> Fraction:
    if duplicate:
        return Fraction(max(table_count - 1, 0), 2)
    return Fraction(seats_per_table - 1, 2) if table_count else Fraction(0)


def _check(result: TableResult) -> None:
    if not len(result.players) == len(result.ranks) == len(result.scores):
        raise ValueError("a table result needs a rank and a score for every seat")
    if len(set(result.players)) != len(result.players):
        raise ValueError("a player sits twice at one table")
