"""Least Score properties over many seeded games: conservation, replay, termination, every
legal action accepted, scores that follow §4.5–§4.6, no leak and no oracle."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from domain import simulation
from domain.errors import RuleError
from domain.rules.least_score import (
    CallMade, GameEnded, PlayerEliminated, RoundRevealed, RoundScored, SetPlayed, TiebreakRound,
)
from tests.domain.test_least_score_support import R, Shown, cards_named, points

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"jokers": 2, "mixed_two_pairs": True, "run_same_suit": True, "pickup_any_open_card": False},
    {"initial_upcard": False, "no_declare_first_lap": False, "max_declare_total": 7,
     "declare_tie_is_false": False, "round_starter": "previous_round_winner"},
    {"elimination_threshold": 25, "eliminate_at": "reach", "end_on_first_elimination": True,
     "common.tiebreak": "fewest_points_last_round", "common.memory": "strict"},
    {"elimination_threshold": 50, "common.tiebreak": "play_another_round", "common.decks": 2,
     "common.round_turn_limit": 12},
]


def games(count: int, bot: str) -> list[tuple[int, dict[str, Any], simulation.GameResult]]:
    out = []
    for seed in range(count):
        players = 2 + seed % 9
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        out.append((players, options, simulation.play(R, players, options, seed, bot=bot)))
    return out


@pytest.fixture(scope="module")
def played() -> list[tuple[int, dict[str, Any], simulation.GameResult]]:
    return games(60, "random") + games(25, "greedy")


def test_games_conserve_cards_replay_and_end(played: list) -> None:
    for players, options, result in played:
        assert result.violations == [], (players, options, result.violations[:3])
        assert result.terminal and R.is_terminal(result.state)
        assert result.rounds >= 1
        assert sorted(R.cards_in_play(result.state)) == sorted(R.full_pack(result.state))


def _expected_round(options: dict[str, Any], revealed: RoundRevealed, declarer: int | None) -> list[int]:
    """Round scores recomputed from the revealed hands, from RULES §4.5 alone."""
    totals = [sum(points(c) for c in h) if t is not None else None
              for h, t in zip(revealed.hands, revealed.totals)]
    if declarer is None:
        return [t or 0 for t in totals]
    d = totals[declarer]
    others = [t for p, t in enumerate(totals) if t is not None and p != declarer]
    m = min(others)
    tie_false = options.get("declare_tie_is_false", True)
    if d < m or (d == m and not tie_false):
        return [0 if t is None or p == declarer else t - d for p, t in enumerate(totals)]
    return [20 + d - m if p == declarer else 0 for p in range(len(totals))]


def test_scores_follow_the_rules(played: list) -> None:
    for players, options, result in played:
        threshold = options.get("elimination_threshold", 100)
        reach = options.get("eliminate_at") == "reach"
        cumulative = [0] * players
        seated = set(range(players))
        declarer: int | None = None
        revealed: RoundRevealed | None = None
        playoff = False
        for e in result.events:
            if isinstance(e, CallMade):
                declarer = e.seat
            elif isinstance(e, RoundRevealed):
                revealed = e
            elif isinstance(e, RoundScored):
                assert revealed is not None
                assert list(e.round_scores) == _expected_round(options, revealed, declarer)
                cumulative = [a + b for a, b in zip(cumulative, e.round_scores)]
                assert list(e.cumulative) == cumulative
                out = {p for p in seated if (cumulative[p] >= threshold if reach else cumulative[p] > threshold)}
                got = set()
                declarer = None
            elif isinstance(e, PlayerEliminated):
                assert not playoff
                got.add(e.seat)
            elif isinstance(e, TiebreakRound):
                playoff = True
                seated = set(e.seats)
            elif isinstance(e, GameEnded):
                if not playoff:
                    assert got == out
                remaining = seated - got
                if len(remaining) == 1 and not playoff:
                    assert e.winners == tuple(remaining)
                else:
                    pool = (remaining or seated) if not playoff else seated
                    low = min(cumulative[p] for p in pool)
                    assert all(cumulative[w] == low for w in e.winners)
                    if not options.get("end_on_first_elimination") and not playoff:
                        assert remaining == set()
            elif type(e).__name__ == "RoundDealt" and revealed is not None:
                if not playoff:
                    assert got == out, (got, out)
                    seated -= got
                assert set(e.seated) == seated


def test_every_legal_action_is_accepted_at_sampled_states(played: list) -> None:
    checked = 0
    for players, options, result in played[::7]:
        state = None
        for i, e in enumerate(result.events):
            state = R.evolve(state, e)
            if i % 5 == 0 and state.phase == "turns":
                key = simulation.game_key(i)
                for seat in range(players):
                    assert simulation.check_legal_actions_accepted(R, state, seat, key) == []
                checked += 1
    assert checked > 100


def test_legal_actions_list_every_set_and_take_and_declare_exactly(played: list) -> None:
    """Cross-check legal_actions against brute force over all sub-multisets (by decide)."""
    from itertools import combinations
    for players, options, result in played[:40:3]:
        state = None
        for i, e in enumerate(result.events):
            state = R.evolve(state, e)
            if i % 17 or state.phase != "turns":
                continue
            seat = state.turn
            listed = {(tuple(sorted(a["discard"])), a["take"]) if a["type"] == "Play" else "Declare"
                      for a in R.legal_actions(state, seat)}
            takes = ["stock"] + ["open:" + c for c in set(state.open_set)]
            brute = set()
            hand = state.hands[seat]
            for k in range(1, len(hand) + 1):
                for sub in set(tuple(sorted(s)) for s in combinations(hand, k)):
                    for t in takes:
                        try:
                            R.decide(state, seat, R.parse_command({"type": "Play", "discard": list(sub),
                                                                   "take": t}), b"k")
                            brute.add((sub, t))
                        except RuleError:
                            pass
            try:
                R.decide(state, seat, R.parse_command({"type": "Declare"}), b"k")
                brute.add("Declare")
            except RuleError:
                pass
            assert listed == brute


# --------------------------------------------------------------------------- no leak


def test_no_view_or_redacted_event_names_a_card_the_seat_was_not_shown(played: list) -> None:
    steps = 0
    for players, options, result in played[::9]:
        shown = Shown(players)
        state = None
        seats: list[int | None] = [*range(players), None]
        for e in result.events:
            for seat in seats:
                data = R.redact(e, seat)
                if data is None:
                    continue
                allowed = shown.allowed_in_event(e, seat)
                leaked = set(cards_named(data)) - allowed
                assert not leaked, (type(e).__name__, seat, leaked)
            shown.apply(e)
            state = R.evolve(state, e)
            if state.phase != "turns":
                continue
            steps += 1
            for seat in seats:
                view = R.view(state, seat)
                named = set(cards_named(view))
                assert named <= set(shown.allowed_in_view(seat)), (seat, named - set(shown.allowed_in_view(seat)))
                for q, p in enumerate(view["players"]):
                    known = [c["card"] for c in p["cards"] if c["card"] is not None]
                    if q == seat:
                        assert Counter(known) == shown.hand[q]
                    elif options.get("common.memory") == "strict":
                        assert known == []
                    else:
                        assert Counter(known) == shown.taken[q], (q, known, shown.taken[q])
                    assert p["card_count"] == len(p["cards"]) == sum(shown.hand[q].values())
                ext = view["extension"]
                assert sorted(ext["open_set"]) == sorted(shown.open)
                assert set(ext["open_takeable"]) <= set(shown.open)
    assert steps > 1000


# --------------------------------------------------------------------------- no oracle


def _unseen_shuffle(state: Any, shown: Shown, seat: int, rng: random.Random) -> Any:
    """The state with every card ``seat`` never saw (others' hidden cards and the stock) permuted."""
    hidden: list[str] = list(state.stock)
    keep: list[Counter[str]] = []
    for q, hand in enumerate(state.hands):
        if q == seat:
            keep.append(Counter())
            continue
        k = shown.taken[q] & Counter(hand)
        keep.append(k)
        hidden += list((Counter(hand) - k).elements())
    rng.shuffle(hidden)
    hands = []
    for q, hand in enumerate(state.hands):
        if q == seat:
            hands.append(hand)
            continue
        n_hidden = len(hand) - sum(keep[q].values())
        hands.append(tuple(keep[q].elements()) + tuple(hidden[:n_hidden]))
        hidden = hidden[n_hidden:]
    known = state.known
    return replace(state, hands=tuple(hands), stock=tuple(hidden), known=known)


def _probe_commands(state: Any, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Legal actions and some illegal ones, including guesses at others' cards."""
    cmds: list[dict[str, Any]] = list(R.legal_actions(state, seat))[:40]
    pack = sorted(set(R.full_pack(state)))
    own = list(state.hands[seat])
    for _ in range(12):
        k = rng.choice([1, 2, 3, 4, 5])
        guess = rng.sample(pack, k) if rng.random() < 0.5 else rng.sample(own, min(k, len(own)))
        take = rng.choice(["stock", "open:" + rng.choice(pack)] + ["open:" + c for c in state.open_set])
        cmds.append({"type": "Play", "discard": guess, "take": take})
    cmds.append({"type": "Declare"})
    return cmds


def _outcome(state: Any, seat: int, cmd: dict[str, Any]) -> tuple[str, ...]:
    try:
        events = R.decide(state, seat, R.parse_command(cmd), b"oracle")
    except RuleError as exc:
        return ("refused", type(exc).__name__, exc.code, str(exc.status), exc.detail)
    return ("accepted",) + tuple(type(e).__name__ for e in events[:1])


def test_shuffling_unseen_cards_changes_no_seats_actions_view_or_errors(played: list) -> None:
    rng = random.Random(7)
    compared = 0
    for players, options, result in played[1::4]:
        shown = Shown(players)
        state = None
        for i, e in enumerate(result.events):
            shown.apply(e)
            state = R.evolve(state, e)
            if state.phase != "turns" or i % 13:
                continue
            for seat in {state.turn, (state.turn + 1) % players}:
                if seat not in state.seated:
                    continue
                other = _unseen_shuffle(state, shown, seat, rng)
                assert sorted(R.cards_in_play(other)) == sorted(R.cards_in_play(state))
                assert R.legal_actions(other, seat) == R.legal_actions(state, seat)
                assert R.view(other, seat) == R.view(state, seat)
                for cmd in _probe_commands(state, seat, rng):
                    assert _outcome(other, seat, cmd) == _outcome(state, seat, cmd), cmd
                compared += 1
    assert compared > 200


def test_a_declaration_from_legal_actions_is_accepted_whether_right_or_wrong(played: list) -> None:
    outcomes = Counter()
    for players, options, result in played[:60]:
        state = None
        for i, e in enumerate(result.events):
            state = R.evolve(state, e)
            if i % 4 == 0 and state.phase == "turns" and {"type": "Declare"} in R.legal_actions(state, state.turn):
                events = R.decide(state, state.turn, R.parse_command({"type": "Declare"}), b"d")
                scored = next(x for x in events if isinstance(x, RoundScored))
                outcomes[scored.outcome] += 1
    assert outcomes["success"] > 10 and outcomes["false"] > 10


def test_a_stock_draw_is_seen_only_by_the_drawer(played: list) -> None:
    for players, options, result in played[:20]:
        for e in result.events:
            if isinstance(e, SetPlayed) and e.take == "stock":
                for seat in [*range(players), None]:
                    assert (R.redact(e, seat)["card"] is not None) == (seat == e.seat)


def test_events_survive_a_json_round_trip_and_fold_to_the_same_state(played: list) -> None:
    import json

    from domain import codec
    for players, options, result in played[:30:3]:
        stored = [json.loads(json.dumps(codec.typed(e))) for e in result.events]
        rebuilt = [codec.build(R.event_types[d.pop("type")], d) for d in stored]
        assert rebuilt == result.events
        state = None
        for e in rebuilt:
            state = R.evolve(state, e)
        assert state == result.state
