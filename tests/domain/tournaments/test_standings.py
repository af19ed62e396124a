"""Standings: points recomputed here from their definitions, and ties broken by Buchholz, then
wins, then head-to-head, then rating, then player id."""
from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments import (Pairing, RoundRecord, TableResult, round_robin_pairing, standings,
                                swiss_pairing)


def duel(winner: str, loser: str, draw: bool = False) -> TableResult:
    return TableResult(players=(winner, loser), ranks=(1, 1) if draw else (1, 2), scores=(0, 0) if draw else (0, 5))


def played(*results: TableResult, byes: tuple[str, ...] = (), duplicate: bool = False) -> RoundRecord:
    return RoundRecord(pairing=Pairing(tables=tuple(r.players for r in results), byes=byes),
                       results=results, duplicate=duplicate)


def order(rounds: list[RoundRecord], players: str, ratings: dict[str, float] | None = None) -> str:
    return "".join(s.player for s in standings(list(players), rounds, ratings))


def test_buchholz_ranks_the_player_who_beat_stronger_opposition_first() -> None:
    # a beat x (who then won a game), b beat y (who won nothing): a, x and b have 1 point each
    rounds = [played(duel("a", "x"), duel("b", "y")), played(duel("x", "y"))]
    table = {s.player: s for s in standings(list("abxy"), rounds)}
    assert (table["a"].tiebreaks[0], table["x"].tiebreaks[0], table["b"].tiebreaks[0]) == (1, 1, 0)
    # a and x are level on Buchholz and wins too; a beat x, so head-to-head puts a first
    assert order(rounds, "abxy") == "axby"
    assert table["a"].tiebreaks[2] == 1 and table["x"].tiebreaks[2] == 0


def test_wins_break_a_tie_of_points_and_buchholz() -> None:
    # p: a win and a loss; q: two draws; both have 1 point against the same opponents a and b
    rounds = [played(duel("p", "a"), duel("q", "b", draw=True)), played(duel("b", "p"), duel("q", "a", draw=True))]
    table = {s.player: s for s in standings(list("abpq"), rounds)}
    assert table["p"].points == table["q"].points == 1 and table["p"].tiebreaks[0] == table["q"].tiebreaks[0] == 2
    assert (table["p"].tiebreaks[1], table["q"].tiebreaks[1]) == (1, 0)
    assert order(rounds, "abpq") == "bpqa"


def test_rating_then_the_player_id_break_what_is_left() -> None:
    rounds = [played(duel("p", "a"), duel("q", "b"))]
    assert order(rounds, "qpab") == "pqab"
    assert order(rounds, "pqab", {"p": 10.0, "q": 20.5}) == "qpab"
    assert standings(["p", "q"], rounds, {"q": 20.5})[0].tiebreaks == (0, 1, 0, 20.5)


def test_a_bye_counts_the_round_average_and_the_players_own_points_in_buchholz() -> None:
    rounds = [played(duel("a", "b"), byes=("c",)), played(duel("c", "a"), byes=("b",))]
    table = {s.player: s for s in standings(list("abc"), rounds)}
    assert (table["c"].points, table["c"].byes, table["c"].games) == (1.5, 1, 1)
    assert table["c"].tiebreaks[0] == 1 + 1.5  # opponent a has 1; the bye counts c's own 1.5
    assert table["b"].points == 0.5


def test_a_round_in_play_counts_its_ended_tables_but_a_duplicate_board_waits_for_all() -> None:
    pairing = Pairing(tables=(("a", "b"), ("c", "d")), byes=("e",))
    ended = (TableResult(players=("c", "d"), ranks=(2, 1), scores=(9, 3)),)
    plain = {s.player: s for s in standings(list("abcde"), [RoundRecord(pairing, ended, duplicate=False)])}
    assert (plain["d"].points, plain["d"].games, plain["e"].byes, plain["a"].games) == (1, 1, 0, 0)
    board = {s.player: s for s in standings(list("abcde"), [RoundRecord(pairing, ended, duplicate=True)])}
    assert all(s.points == 0 and s.games == 0 and s.byes == 0 for s in board.values())
    both = ended + (TableResult(players=("a", "b"), ranks=(2, 1), scores=(7, 4)),)
    board = {s.player: s for s in standings(list("abcde"), [RoundRecord(pairing, both, duplicate=True)])}
    # seat 0: a (2nd, 7) beat c (2nd, 9); seat 1: d (1st, 3) beat b (1st, 4); the bye is (2 - 1) / 2
    assert {p: s.points for p, s in board.items()} == {"a": 1, "b": 0, "c": 0, "d": 1, "e": 0.5}
    assert board["a"].tiebreaks[1] == 1, "a top on the board counts as a win"


def test_a_result_for_no_table_of_the_round_is_refused() -> None:
    with pytest.raises(ValueError):
        standings(["a", "b"], [RoundRecord(Pairing(tables=(("a", "b"),), byes=()), (duel("b", "a"),), False)])


def recount(rounds: list[RoundRecord]) -> dict[str, Fraction]:
    """Points from their definitions, written apart from the code: a seat earns 1 for each seat it
    placed above and 1/2 for each it tied; on a board, 1 for each table where its seat did worse
    and 1/2 for each exact tie; a bye the average of what the seated earned that round."""
    points: dict[str, Fraction] = defaultdict(Fraction)
    for record in rounds:
        earned: dict[str, Fraction] = {}
        for r in record.results:
            for s, p in enumerate(r.players):
                if record.duplicate:
                    mine = (r.ranks[s], r.scores[s])
                    others = [(o.ranks[s], o.scores[s]) for o in record.results if o is not r]
                    earned[p] = sum(Fraction(1) for o in others if o > mine) + Fraction(others.count(mine), 2)
                else:
                    earned[p] = sum(Fraction(1) for q in r.ranks if q > r.ranks[s]) + \
                        Fraction(r.ranks.count(r.ranks[s]) - 1, 2)
        for p, v in earned.items():
            points[p] += v
        for p in record.pairing.byes:
            points[p] += sum(earned.values(), Fraction(0)) / len(earned)
    return points


def play(pairing: Pairing, rng: random.Random, duplicate: bool) -> RoundRecord:
    results = tuple(TableResult(players=t, ranks=tuple(rng.randint(1, len(t)) for _ in t),
                                scores=tuple(rng.randint(0, 4) for _ in t)) for t in pairing.tables)
    return RoundRecord(pairing=pairing, results=results, duplicate=duplicate)


@settings(max_examples=40, deadline=None)
@given(count=st.sampled_from([5, 7, 8, 9]), seats=st.sampled_from([2, 3, 4]), swiss=st.booleans(),
       duplicate=st.booleans(), seed=st.integers(0, 2**32))
def test_standings_equal_points_recomputed_from_their_definitions_and_are_sorted(
        count: int, seats: int, swiss: bool, duplicate: bool, seed: int) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    ratings = {p: float(rng.randint(0, 3)) for p in players}
    rounds: list[RoundRecord] = []
    for number in range(1, 5):
        now = standings(players, rounds, ratings)
        pairing = (swiss_pairing([s.player for s in now], seats, [r.pairing for r in rounds]) if swiss
                   else round_robin_pairing(players, seats, number))
        rounds.append(play(pairing, rng, duplicate))
    expected = recount(rounds)
    table = standings(players, rounds, ratings)
    assert {s.player: s.points for s in table} == {p: float(expected[p]) for p in players}
    assert sum(s.games for s in table) == sum(len(t) for r in rounds for t in r.pairing.tables)
    assert sum(s.byes for s in table) == sum(len(r.pairing.byes) for r in rounds)
    keys = [(-s.points, *(-t for t in s.tiebreaks), s.player) for s in table]
    assert keys == sorted(keys)
