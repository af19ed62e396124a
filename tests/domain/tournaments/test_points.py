"""Points: by place at a table (ties share), matchpoints on a duplicate board (seat against the
same seat at every other table), and a bye worth the round's average."""
from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments import TableResult, board_matchpoints, bye_points, table_points


def table(players: str, ranks: tuple[int, ...], scores: tuple[int, ...] | None = None) -> TableResult:
    return TableResult(players=tuple(players), ranks=ranks, scores=scores or tuple(0 for _ in players))


@pytest.mark.parametrize(("ranks", "points"), [
    ((1, 2, 3, 4), (3, 2, 1, 0)),
    ((4, 3, 2, 1), (0, 1, 2, 3)),
    ((1, 1, 3, 4), (2.5, 2.5, 1, 0)),
    ((1, 2, 2, 4), (3, 1.5, 1.5, 0)),
    ((1, 2, 2, 3), (3, 1.5, 1.5, 0)),  # dense ranks read the same as "1224"
    ((1, 1, 1, 4), (2, 2, 2, 0)),
    ((1, 1, 1, 1), (1.5, 1.5, 1.5, 1.5)),
    ((2, 1, 3), (1, 2, 0)),
    ((1, 1), (0.5, 0.5)),
])
def test_a_table_gives_last_0_one_more_each_place_above_and_ties_share(
        ranks: tuple[int, ...], points: tuple[float, ...]) -> None:
    players = "abcd"[:len(ranks)]
    assert table_points(table(players, ranks)) == dict(zip(players, points))


@settings(max_examples=200, deadline=None)
@given(ranks=st.lists(st.integers(1, 4), min_size=2, max_size=6))
def test_a_seats_table_points_are_the_seats_it_beat_plus_half_those_it_tied(ranks: list[int]) -> None:
    players = "abcdef"[:len(ranks)]
    points = table_points(table(players, tuple(ranks)))
    for i, p in enumerate(players):
        beaten = sum(r > ranks[i] for r in ranks)
        tied = sum(r == ranks[i] for r in ranks) - 1
        assert points[p] == beaten + tied / 2
    assert sum(points.values()) == comb(len(ranks), 2)


def test_a_duplicate_board_compares_each_seat_with_the_same_seat_elsewhere_by_place_then_score() -> None:
    board = [table("ab", (1, 2), (5, 9)), table("cd", (1, 2), (5, 9)), table("ef", (2, 1), (12, 3))]
    # seat 0: a and c tie exactly and both beat e (placed lower); seat 1: f placed first, b and d tie
    assert board_matchpoints(board) == {"a": 1.5, "c": 1.5, "e": 0, "b": 0.5, "d": 0.5, "f": 2}
    # the same place: the lower score wins the comparison
    assert board_matchpoints([table("ab", (1, 2), (10, 20)), table("cd", (1, 2), (15, 18))]) == {
        "a": 1, "c": 0, "b": 0, "d": 1}
    # place first: a seat that won at its table beats one that lost with a lower score
    assert board_matchpoints([table("ab", (1, 2), (30, 31)), table("cd", (2, 1), (4, 2))])["a"] == 1


@settings(max_examples=100, deadline=None)
@given(tables=st.integers(1, 6), seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_each_seat_of_a_board_shares_out_tables_choose_2_matchpoints(tables: int, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    board = [TableResult(players=tuple(f"t{t}s{s}" for s in range(seats)),
                         ranks=tuple(rng.randint(1, seats) for _ in range(seats)),
                         scores=tuple(rng.randint(0, 3) for _ in range(seats))) for t in range(tables)]
    points = board_matchpoints(board)
    for s in range(seats):
        assert sum(points[t.players[s]] for t in board) == comb(tables, 2)
    # and each seat's matchpoints, counted here directly from the definition
    for t in board:
        for s, p in enumerate(t.players):
            mine = (t.ranks[s], t.scores[s])
            others = [(o.ranks[s], o.scores[s]) for o in board if o is not t]
            assert points[p] == sum(o > mine for o in others) + Fraction(sum(o == mine for o in others), 2)


@pytest.mark.parametrize(("seats", "tables", "duplicate", "worth"), [
    (2, 3, False, 0.5), (3, 2, False, 1), (4, 2, False, 1.5), (4, 5, True, 2), (2, 2, True, 0.5),
    (4, 1, True, 0), (4, 0, False, 0),
])
def test_a_bye_is_worth_the_average_of_the_round(seats: int, tables: int, duplicate: bool, worth: float) -> None:
    assert bye_points(seats, tables, duplicate) == worth


@settings(max_examples=50, deadline=None)
@given(tables=st.integers(1, 5), seats=st.integers(2, 4), duplicate=st.booleans(), seed=st.integers(0, 2**32))
def test_a_bye_is_what_a_seated_player_earned_on_average_that_round(
        tables: int, seats: int, duplicate: bool, seed: int) -> None:
    rng = random.Random(seed)
    results = [TableResult(players=tuple(f"t{t}s{s}" for s in range(seats)),
                           ranks=tuple(rng.randint(1, seats) for _ in range(seats)),
                           scores=tuple(rng.randint(0, 9) for _ in range(seats))) for t in range(tables)]
    points = board_matchpoints(results) if duplicate else {p: v for r in results for p, v in table_points(r).items()}
    assert bye_points(seats, tables, duplicate) == pytest.approx(sum(points.values()) / (tables * seats))


def test_a_result_must_give_every_seat_a_rank_and_a_score() -> None:
    with pytest.raises(ValueError):
        table_points(TableResult(players=("a", "b"), ranks=(1,), scores=(0, 0)))
    with pytest.raises(ValueError):
        board_matchpoints([table("ab", (1, 2)), table("cde", (1, 2, 3))])
