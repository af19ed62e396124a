"""Pairings: nobody sits twice in a round, everyone sits or has a bye, a two-seat round robin
meets every pair exactly once, a round robin at more seats meets every pair with a small spread,
and the Swiss finds the fewest repeats there are (checked against every seating, by brute force)."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments import Pairing, round_robin_pairing, round_robin_rounds, seating, swiss_pairing

SIZES = [(n, k) for n in (5, 7, 8, 9) for k in (2, 3, 4)]


def names(count: int) -> list[str]:
    return [f"p{i:02d}" for i in range(count)]


def pair_meetings(pairings: Sequence[Pairing]) -> Counter[frozenset[str]]:
    return Counter(frozenset(pair) for p in pairings for table in p.tables for pair in combinations(table, 2))


def assert_a_proper_round(pairing: Pairing, players: Sequence[str], seats: int) -> None:
    seated = [p for table in pairing.tables for p in table] + list(pairing.byes)
    assert sorted(seated) == sorted(players), "each player exactly once: at one table or on a bye"
    assert all(len(table) == seats for table in pairing.tables)
    assert len(pairing.byes) == len(players) % seats


def swiss_rounds(players: list[str], seats: int, rounds: int, seed: int) -> list[Pairing]:
    """A Swiss played with a fresh, random order each round (as standings would shuffle it)."""
    shuffle = random.Random(seed)
    history: list[Pairing] = []
    for _ in range(rounds):
        order = players[:]
        shuffle.shuffle(order)
        history.append(swiss_pairing(order, seats, history))
    return history


@pytest.mark.parametrize(("count", "seats"), SIZES)
def test_a_swiss_round_seats_everyone_once_or_gives_a_bye(count: int, seats: int) -> None:
    players = names(count)
    rounds = swiss_rounds(players, seats, 6, seed=count * 10 + seats)
    for pairing in rounds:
        assert_a_proper_round(pairing, players, seats)
    byes = Counter(p for pairing in rounds for p in pairing.byes)
    assert max(byes[p] for p in players) - min(byes[p] for p in players) <= 1, "nobody has a second bye first"


@pytest.mark.parametrize(("count", "seats"), SIZES)
def test_a_round_robin_round_seats_everyone_once_or_gives_a_bye(count: int, seats: int) -> None:
    players = names(count)
    for number in range(1, round_robin_rounds(count, seats) + 1):
        assert_a_proper_round(round_robin_pairing(players, seats, number), players, seats)


@pytest.mark.parametrize("count", range(2, 17))
def test_a_two_seat_round_robin_meets_every_pair_exactly_once(count: int) -> None:
    players = names(count)
    rounds = round_robin_rounds(count, 2)
    assert rounds == (count - 1 if count % 2 == 0 else count)
    schedule = [round_robin_pairing(players, 2, n) for n in range(1, rounds + 1)]
    met = pair_meetings(schedule)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    byes = Counter(p for pairing in schedule for p in pairing.byes)
    assert byes == (Counter(players) if count % 2 else Counter())


@pytest.mark.parametrize("count", range(2, 17))
def test_a_two_seat_round_robin_gives_seat_0_in_half_of_each_players_games(count: int) -> None:
    players = names(count)
    tables = [t for n in range(1, round_robin_rounds(count, 2) + 1) for t in round_robin_pairing(players, 2, n).tables]
    first, games = Counter(t[0] for t in tables), Counter(p for t in tables for p in t)
    assert all(abs(first[p] - games[p] / 2) <= 0.5 for p in players)


@pytest.mark.parametrize(("count", "seats"), [(n, k) for k in (3, 4, 5) for n in range(k, 13)])
def test_a_round_robin_at_more_seats_meets_every_pair_with_a_spread_of_at_most_3(count: int, seats: int) -> None:
    players = names(count)
    rounds = round_robin_rounds(count, seats)
    schedule = [round_robin_pairing(players, seats, n) for n in range(1, rounds + 1)]
    met = pair_meetings(schedule)
    every_pair = [met[frozenset(pair)] for pair in combinations(players, 2)]
    assert min(every_pair) >= 1
    assert max(every_pair) - min(every_pair) <= (3 if seats < 5 else 4)
    byes = Counter(p for pairing in schedule for p in pairing.byes)
    assert max(byes[p] for p in players) - min(byes[p] for p in players) <= 1
    # no round could have been spared: the last one met a pair that had not met before
    assert pair_meetings(schedule[:-1]).keys() != met.keys()


def test_eight_players_at_four_seats_meet_everyone_in_the_fewest_rounds_possible() -> None:
    # 28 pairs, 12 a round: 3 rounds at the least; sixteen at four seats meet every pair exactly once
    assert round_robin_rounds(8, 4) == 3
    assert round_robin_rounds(16, 4) == 5
    assert set(pair_meetings([round_robin_pairing(names(16), 4, n) for n in range(1, 6)]).values()) == {1}


def test_a_round_robin_follows_the_players_given_order_and_starts_again_after_its_end() -> None:
    players, renamed = names(9), [f"q{i}" for i in range(9)]
    rounds = round_robin_rounds(9, 4)
    for n in range(1, rounds + 1):
        first, second = round_robin_pairing(players, 4, n), round_robin_pairing(renamed, 4, n)
        rename = dict(zip(players, renamed))
        assert second.tables == tuple(tuple(rename[p] for p in t) for t in first.tables)
        assert round_robin_pairing(players, 4, n + rounds) == first
    assert round_robin_pairing(list("abcd"), 2, 1) == Pairing(tables=(("a", "d"), ("b", "c")), byes=())


def test_fewer_players_than_seats_all_sit_out() -> None:
    assert round_robin_rounds(3, 4) == 0
    assert round_robin_pairing(["a", "b", "c"], 4, 1) == Pairing(tables=(), byes=("a", "b", "c"))
    assert swiss_pairing(["a", "b", "c"], 4, []) == Pairing(tables=(), byes=("a", "b", "c"))


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError):
        swiss_pairing(["a", "a", "b"], 2, [])
    with pytest.raises(ValueError):
        swiss_pairing(["a", "b"], 1, [])
    with pytest.raises(ValueError):
        round_robin_pairing(["a", "b"], 2, 0)


def test_the_first_swiss_round_seats_the_order_in_consecutive_tables() -> None:
    order = names(9)
    pairing = swiss_pairing(order, 4, [])
    assert [sorted(t) for t in pairing.tables] == [order[0:4], order[4:8]]
    assert pairing.byes == (order[8],), "the lowest in the order sits out"


def test_the_swiss_bye_goes_to_the_lowest_who_has_had_fewest_byes() -> None:
    order = names(5)
    history = [Pairing(tables=(), byes=("p04",)), Pairing(tables=(), byes=("p03",))]
    assert swiss_pairing(order, 2, history).byes == ("p02",)
    assert swiss_pairing(order, 2, history[:1]).byes == ("p03",)


def test_the_swiss_keeps_the_leader_with_the_next_best_player_not_yet_met() -> None:
    order = ["a", "b", "c", "d"]
    history = [Pairing(tables=(("a", "b"), ("c", "d")), byes=())]
    assert {frozenset(t) for t in swiss_pairing(order, 2, history).tables} == {frozenset("ac"), frozenset("bd")}


def test_the_swiss_gives_seat_0_to_whoever_had_it_less() -> None:
    history = [Pairing(tables=(("a", "c"), ("d", "b")), byes=())]
    assert swiss_pairing(["a", "b", "c", "d"], 2, history).tables == (("b", "a"), ("c", "d"))


def repeat_cost(tables: Sequence[Sequence[str]], met: Counter[frozenset[str]]) -> int:
    """The documented measure: a pair that met t > 0 times before costs t + 1."""
    return sum(met[frozenset(p)] + 1 for t in tables for p in combinations(t, 2) if met[frozenset(p)])


def every_seating(players: list[str], seats: int) -> Iterator[list[tuple[str, ...]]]:
    """Every split into tables, the first player's table listed first, in the order's order."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for mates in combinations(rest, seats - 1):
        left = [p for p in rest if p not in mates]
        for others in every_seating(left, seats):
            yield [(first, *mates), *others]


@settings(max_examples=150, deadline=None)
@given(count=st.integers(4, 9), seats=st.integers(2, 4), past=st.integers(0, 5), seed=st.integers(0, 2**32))
def test_the_swiss_finds_the_fewest_repeats_of_any_seating_closest_to_the_order(
        count: int, seats: int, past: int, seed: int) -> None:
    players = names(count)
    history = swiss_rounds(players, seats, past, seed) if seats * 2 <= count else []
    order = players[:]
    random.Random(seed + 1).shuffle(order)
    pairing = swiss_pairing(order, seats, history)
    met = pair_meetings(history)
    playing = [p for p in order if p not in pairing.byes]
    seatings = list(every_seating(playing, seats))
    fewest = min(repeat_cost(s, met) for s in seatings)
    assert repeat_cost(pairing.tables, met) == fewest
    if fewest == 0:
        assert not any(met[frozenset(p)] for t in pairing.tables for p in combinations(t, 2))
    first_best = next(s for s in seatings if repeat_cost(s, met) == fewest)
    assert [set(t) for t in pairing.tables] == [set(t) for t in first_best]


def test_a_round_too_big_for_the_exact_search_still_seats_everyone_the_same_way_each_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    players = names(12)
    history = swiss_rounds(players, 4, 3, seed=7)
    exact = swiss_pairing(players, 4, history)
    monkeypatch.setattr(seating, "SEARCH_LIMIT", 0)
    greedy = swiss_pairing(players, 4, history)
    assert_a_proper_round(greedy, players, 4)
    assert greedy == swiss_pairing(players, 4, history)
    met = pair_meetings(history)
    assert repeat_cost(exact.tables, met) <= repeat_cost(greedy.tables, met)
