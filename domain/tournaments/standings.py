"""The standings: points, then the tie-breaks, in this order (best first):

1. **points**: the sum of a player's table points (or matchpoints, on duplicate boards) and byes;
2. **Buchholz**: the strength of the opposition met. For each table played, the average points
   of the others at that table (at two seats, simply the opponent's points, the classic Buchholz);
   for each bye, the player's own points, so a bye neither lifts nor sinks it. It is the first
   tie-break Swiss organisers reach for: of two players level on points, the one who got there
   against stronger players ranks higher, and it needs nothing but the standings themselves;
3. **wins**: the rounds won outright: sole first place at the table, or on a duplicate board a
   top (better than the same seat at every other table). It favours a player who wins over one who
   collects middle places. In a complete round robin at two seats, Buchholz is the same for
   players level on points (they met the same opponents), so wins and head-to-head decide, as
   round-robin organisers expect;
4. **head-to-head**: among the players still level on all of the above, the points they took off
   each other at the tables they shared (1 for each of the group placed below them at that table,
   0.5 for each tied with them);
5. **rating**: the higher rating at the start (a player without one counts as 0, a new player's);
6. **player id**, alphabetically: a last resort so the order is total and the same every time.

What counts: a table counts once it has a result; a duplicate board only once every table of its
round has one (a seat is compared with all of them); a bye once its round is complete.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, groupby

from domain.tournaments.model import RoundRecord, Standing, TableResult
from domain.tournaments.points import exact_board_matchpoints, exact_bye_points, exact_table_points


@dataclass(slots=True)
class _Tally:
    points: Fraction = Fraction(0)
    wins: int = 0
    byes: int = 0
    tables: list[TableResult] = field(default_factory=list)


def standings(players: Sequence[str], rounds: Sequence[RoundRecord],
              ratings: Mapping[str, float] | None = None) -> tuple[Standing, ...]:
    """Every player of ``players`` with their points and tie-breaks, best first. Opponents who
    are not listed (withdrawn, say) still count in the Buchholz of those who met them."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    tally: defaultdict[str, _Tally] = defaultdict(_Tally)
    for record in rounds:
        _count_round(record, tally)
    buchholz = {p: _buchholz(p, tally) for p in players}
    ahead = sorted(players, key=lambda p: (-tally[p].points, -buchholz[p], -tally[p].wins))
    head_to_head: dict[str, Fraction] = {}
    for _, level in groupby(ahead, key=lambda p: (tally[p].points, buchholz[p], tally[p].wins)):
        head_to_head.update(_head_to_head(list(level), tally))
    rating = {p: float((ratings or {}).get(p, 0.0)) for p in players}
    ranked = sorted(ahead, key=lambda p: (-tally[p].points, -buchholz[p], -tally[p].wins,
                                          -head_to_head[p], -rating[p], p))
    return tuple(Standing(player=p, points=float(tally[p].points),
                          tiebreaks=(float(buchholz[p]), float(tally[p].wins), float(head_to_head[p]), rating[p]),
                          games=len(tally[p].tables), byes=tally[p].byes) for p in ranked)


def _count_round(record: RoundRecord, tally: defaultdict[str, _Tally]) -> None:
    tables = {tuple(t) for t in record.pairing.tables}
    strays = [r.players for r in record.results if tuple(r.players) not in tables]
    if strays or len({tuple(r.players) for r in record.results}) != len(record.results):
        raise ValueError(f"results that match no table of the round, or one table twice: {strays}")
    complete = record.complete()
    table_count = len(record.pairing.tables)
    if record.duplicate:
        if complete:
            matchpoints = exact_board_matchpoints(record.results)
            for result in record.results:
                for player in result.players:
                    _credit(tally[player], result, matchpoints[player], Fraction(table_count - 1))
    else:
        for result in record.results:
            points = exact_table_points(result)
            for player in result.players:
                _credit(tally[player], result, points[player], Fraction(len(result.players) - 1))
    if complete:
        seats = len(record.pairing.tables[0]) if table_count else 0
        worth = exact_bye_points(seats, table_count, record.duplicate)
        for player in record.pairing.byes:
            tally[player].points += worth
            tally[player].byes += 1


def _credit(player: _Tally, result: TableResult, points: Fraction, top: Fraction) -> None:
    player.points += points
    player.tables.append(result)
    player.wins += int(top > 0 and points == top)


def _buchholz(player: str, tally: defaultdict[str, _Tally]) -> Fraction:
    mine = tally[player]
    opposition = sum((Fraction(sum((tally[o].points for o in t.players if o != player), Fraction(0)),
                               len(t.players) - 1) for t in mine.tables), Fraction(0))
    return opposition + mine.byes * mine.points


def _head_to_head(level: list[str], tally: defaultdict[str, _Tally]) -> dict[str, Fraction]:
    taken = {p: Fraction(0) for p in level}
    if len(level) < 2:
        return taken
    group = set(level)
    shared = {id(t): t for p in level for t in tally[p].tables}.values()
    for table in shared:
        rank = {p: r for p, r in zip(table.players, table.ranks) if p in group}
        for a, b in combinations(rank, 2):
            if rank[a] == rank[b]:
                taken[a] += Fraction(1, 2)
                taken[b] += Fraction(1, 2)
            else:
                taken[a if rank[a] < rank[b] else b] += 1
    return taken
