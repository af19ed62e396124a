"""Properties of 4 Cartas over many seeded games: conservation, replay, termination,
legal actions accepted, scores as the rules say, no leak and no oracle (standing orders
included: they show nothing but to their owner until the round ends)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from domain.cards import is_card_code
from domain.codec import typed
from domain.errors import RuleError
from domain.ruleset import fold
from domain.rules.cuatro_cartas import RULESET as R
from domain.simulation import check_legal_actions_accepted, play
from tests.domain.order_record import OTHER, Orders
from tests.domain.test_cuatro_cartas_support import drive
from tests.sizes import sized

VARIANTS: list[dict[str, Any]] = [
    {},
    {"rival_matching": True},
    {"single_match_per_discard": True, "penalty_placement": "empty_slot_first"},
    {"group_match_all_or_nothing": True, "failed_match_reveal": "claimant_only"},
    {"in_turn_match_power": True, "replaced_card_power": False},
    {"allow_rediscard": False, "swap_must_include_own": True},
    {"close_timing": "after_turn", "lock_closer": False},
    {"penalty_card_visible_to_owner": True, "failed_match_reveal": "none", "auto_close_when_empty": True},
    {"common.stock_exhausted": "end_round", "eight_rule": "pair_rule", "failed_close_negative": "double"},
    {"common.tiebreak": "play_another_round", "rounds": 2, "failed_close_negative": "keep_total"},
    {"common.memory": "strict", "common.round_turn_limit": 12, "common.tiebreak": "fewest_points_last_round"},
    {"rival_matching": True, "group_match_all_or_nothing": True, "in_turn_match_power": True,
     "close_timing": "after_turn", "allow_rediscard": False, "single_match_per_discard": True},
]


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("games", sized(28, 120))
def test_simulated_games_keep_every_invariant(bot: str, games: int) -> None:
    for seed in range(games):
        res = play(R, 2 + seed % 7, {}, seed, bot, max_steps=20000)
        assert not res.violations, (seed, res.violations[:3])
        assert res.terminal and res.rounds >= 5


@pytest.mark.parametrize("seeds", sized(2, 8))
def test_greedy_games_under_every_option_variant_keep_every_invariant(seeds: int) -> None:
    for i, options in enumerate(VARIANTS):
        for seed in range(seeds):
            res = play(R, 2 + (seed + i) % 7, options, 1000 * i + seed, "greedy", max_steps=20000)
            assert not res.violations, (options, seed, res.violations[:3])


def _values(cards: list[str], rule: str) -> int:
    """An independent reading of RULES §5.1."""
    value = {"A": 1, "J": 10, "Q": 10, "K": 10}
    eights = [c for c in cards if c.startswith("8")]
    total = sum(value.get(c[:-1], 0 if c[:-1] == "8" else int(c[:-1]) if c[:-1].isdigit() else 0)
                for c in cards)
    if rule == "all_eights":
        minus = bool(eights) and len(eights) == len(cards)
    else:
        minus = len(eights) >= 2 or len(cards) == 1 == len(eights)
    return total - (5 * len(eights) if minus else 0)


def _check_scores(events: list[Any], options: dict[str, Any]) -> int:
    opts = R.resolve_options(options, 2)
    cumulative: list[int] | None = None
    closer = None
    checked = 0
    revealed = None
    for e in events:
        name = type(e).__name__
        if name == "GameStarted":
            cumulative = [0] * e.players
        elif name == "RoundDealt":
            closer = None
        elif name == "CallMade":
            closer = e.seat
        elif name == "RoundRevealed":
            revealed = e
        elif name == "RoundScored":
            assert revealed is not None and cumulative is not None
            totals = [_values([c for _, c in lay if c is not None], opts["eight_rule"]) for lay in revealed.layouts]
            assert list(e.totals) == totals
            want = list(totals)
            if closer is not None and revealed.reason != "stock_exhausted":
                t = totals[closer]
                if not all(t < x for p, x in enumerate(totals) if p != closer):
                    neg = {"one_point": 1, "keep_total": t, "double": 2 * t}[opts["failed_close_negative"]]
                    want[closer] = 2 * t if t > 0 else 1 if t == 0 else neg
            assert list(e.round_scores) == want
            cumulative = [a + b for a, b in zip(cumulative, want)]
            assert list(e.cumulative) == cumulative
            checked += 1
        elif name == "GameEnded":
            assert cumulative is not None and list(e.scores) == cumulative
            assert all(cumulative[w] == min(cumulative) for w in e.winners)
    return checked


@pytest.mark.parametrize("index", range(len(VARIANTS)))
@pytest.mark.parametrize("seeds", sized(3, 10))
def test_driven_games_with_system_commands_replay_conserve_and_score_by_the_rules(index: int, seeds: int) -> None:
    options = VARIANTS[index]
    rounds = 0
    for seed in range(seeds):
        events, states, final = drive(2 + (seed + index) % 7, options, 97 * index + seed)
        assert R.is_terminal(final), (options, seed)
        assert fold(R, events) == final
        for s in states[:: max(1, len(states) // 25)]:
            assert Counter(R.cards_in_play(s)) == Counter(R.full_pack(s))
            for seat in range(s.players):
                assert not check_legal_actions_accepted(R, s, seat, b"k" * 32)
        rounds += _check_scores(events, options)
    assert rounds >= seeds


# -- no leak ------------------------------------------------------------------------------------------


class Shown:
    """The test's own record of what each seat was shown and can still locate (RULES §2.4)."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.n = players
        self.opts = R.resolve_options(options, players)
        self.known: list[dict[tuple[int, str], str]] = [{} for _ in range(players)]
        self.held: tuple[str, str, int] | None = None  # card, source, drawer
        self.cards: dict[tuple[int, str], str] = {}

    def allowed(self, e: Any, seat: int | None) -> set[str]:
        """Cards this seat may see in this event."""
        name = type(e).__name__
        if name in ("RoundDealt",):
            return {e.upcard}
        if name == "StockReshuffled":
            return set()
        if name in ("PeekChosen", "CardsLooked"):
            return set(e.cards) if seat == e.seat else set()
        if name == "CardDrawn":
            return {e.card} if e.source == "discard" or seat == e.seat else set()
        if name == "PenaltyCardDealt":
            return {e.card} if self.opts["penalty_card_visible_to_owner"] and seat == e.seat else set()
        if name == "ClaimResolved":
            reveal = self.opts["failed_match_reveal"]
            ok = (e.outcome == "correct" or reveal == "public" or (reveal == "claimant_only" and seat == e.actor))
            return {e.window_card} | (set(e.revealed) if ok else set())
        if name in ("CardDiscarded", "CardReplaced", "WindowOpened", "RoundRevealed"):
            return _cards(typed(e))  # face-up cards, and the end-of-round reveal
        return set()

    def learn(self, e: Any) -> None:
        name = type(e).__name__
        everyone = range(self.n)
        if name == "RoundDealt":
            self.known = [{} for _ in everyone]
        elif name in ("PeekChosen", "CardsLooked"):
            targets = [(e.seat, x) for x in e.slots] if name == "PeekChosen" else [tuple(t) for t in e.targets]
            for t, c in zip(targets, e.cards):
                self.known[e.seat][t] = c
        elif name == "CardDrawn":
            self.held = (e.card, e.source, e.seat)
        elif name == "CardReplaced":
            assert self.held is not None
            c, source, drawer = self.held
            loc = (e.seat, e.slot)
            for p in everyone:
                self.known[p].pop(loc, None)
                if source == "discard" or p == drawer:
                    self.known[p][loc] = c
        elif name == "CardsSwapped":
            a, b = tuple(e.a), tuple(e.b)
            for k in self.known:
                ca, cb = k.pop(a, None), k.pop(b, None)
                if ca is not None:
                    k[b] = ca
                if cb is not None:
                    k[a] = cb
        elif name == "ClaimResolved":
            if e.outcome == "correct":
                for k in self.known:
                    for t in e.targets:
                        k.pop(tuple(t), None)
                    if e.give_slot is not None:
                        c = k.pop((e.actor, e.give_slot), None)
                        if c is not None:
                            k[tuple(e.targets[0])] = c
            else:
                reveal = self.opts["failed_match_reveal"]
                who = everyone if reveal == "public" else [e.actor] if reveal == "claimant_only" else []
                for p in who:
                    for t, c in zip(e.targets, e.revealed):
                        self.known[p][tuple(t)] = c
        elif name == "PenaltyCardDealt":
            for p in everyone:
                self.known[p].pop((e.seat, e.slot), None)
            if self.opts["penalty_card_visible_to_owner"]:
                self.known[e.seat][(e.seat, e.slot)] = e.card


def _cards(obj: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k != "options":
                out |= _cards(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= _cards(v)
    elif is_card_code(obj):
        out.add(obj)
    return out


@pytest.mark.parametrize("options", [{}, {"common.memory": "strict"}, VARIANTS[1], VARIANTS[3], VARIANTS[7],
                                     VARIANTS[11]])
def test_no_leak_in_views_or_redacted_events(options: dict[str, Any]) -> None:
    placed = 0
    for seed in range(6):
        n = 2 + seed % 5
        events, _, _ = drive(n, options, 500 + seed, claim_rate=0.1)
        shown = Shown(n, options)
        orders = Orders()
        state = None
        strict = R.resolve_options(options, n)["common.memory"] == "strict"
        for i, e in enumerate(events):
            for seat in [*range(n), None]:
                red = R.redact(e, seat)
                leaked = _cards(red) - shown.allowed(e, seat) if red is not None else set()
                assert not leaked, (type(e).__name__, seat, leaked)
                assert orders.shows(e, seat, typed(e)) in (OTHER, red), (type(e).__name__, seat)
            shown.learn(e)
            orders.apply(e)
            state = R.evolve(state, e)
            if i % 3 or state.phase == "REVEAL":
                continue
            for seat in range(n):
                v = R.view(state, seat)
                assert [o["order_id"] for o in v["extension"]["orders"]] == orders.live_ids(seat), (seat, v["extension"]["orders"])
                for p, row in enumerate(v["players"]):
                    for x in row["cards"]:
                        loc = (p, x["slot"])
                        if x["card"] is not None:
                            assert not strict and shown.known[seat].get(loc) == x["card"] == state.layouts[p].card(
                                x["slot"]), (seat, loc)
                        elif not strict and not x["empty"]:
                            assert loc not in shown.known[seat], (seat, loc, "notebook forgot a card")
                held_ok = state.held is not None and (seat == state.turn or state.held_source == "discard")
                assert v["held"] is None or v["held"]["card"] is None or held_ok
                public = set(state.pile) | ({state.held} if held_ok else set())
                faces = {x["card"] for row in v["players"] for x in row["cards"] if x["card"]}
                assert _cards(v) <= public | faces
        placed += orders.placed
    assert placed > 10


# -- no oracle ----------------------------------------------------------------------------------------


def _probe(state: Any, seat: int, commands: list[dict[str, Any]]) -> list[str]:
    out = []
    for c in commands:
        try:
            events = R.decide(state, seat, R.parse_command(c), b"o" * 32)
        except RuleError as exc:
            out.append(exc.code)
            continue
        if c["type"] in ("PlaceOrder", "CancelOrder"):  # judges no card: the same events for every viewer
            out.append(repr([[R.redact(e, viewer) for e in events] for viewer in (None, *range(state.players))]))
        else:
            out.append("ok")
    return out


def _permute_unseen(state: Any, seen: set[str], rng: random.Random) -> Any:
    """Shuffle the face-down cards (and stock) a seat has never been shown."""
    places: list[tuple[str, int, int]] = []
    for p, lay in enumerate(state.layouts):
        places += [("lay", p, i) for i, c in enumerate(lay.cards) if c is not None and c not in seen]
    places += [("stock", 0, i) for i, c in enumerate(state.stock) if c not in seen]
    cards = [state.layouts[p].cards[i] if kind == "lay" else state.stock[i] for kind, p, i in places]
    rng.shuffle(cards)
    lays = [list(lay.cards) for lay in state.layouts]
    stock = list(state.stock)
    for (kind, p, i), c in zip(places, cards):
        if kind == "lay":
            lays[p][i] = c
        else:
            stock[i] = c
    return state._replace(layouts=tuple(lay.__class__(lay.slots, tuple(c)) for lay, c in zip(state.layouts, lays)),
                          stock=tuple(stock))


@pytest.mark.parametrize("options", [{}, VARIANTS[1], VARIANTS[3], VARIANTS[11]])
@pytest.mark.parametrize("seeds", sized(2, 5))
def test_no_oracle_unseen_cards_change_no_view_action_or_error(options: dict[str, Any], seeds: int) -> None:
    rng = random.Random(7)
    compared = with_orders = 0
    for seed in range(seeds):
        n = 2 + seed % 4
        events, _, _ = drive(n, options, 900 + seed, claim_rate=0.1)
        state = None
        seen: list[set[str]] = [set() for _ in range(n)]
        for i, e in enumerate(events):
            for seat in range(n):
                seen[seat] |= _cards(R.redact(e, seat))
            state = R.evolve(state, e)
            if i % 7 or state.phase in ("REVEAL", "GAME_OVER"):
                continue
            for seat in range(n):
                seen[seat] |= _cards(R.view(state, seat))
                other = _permute_unseen(state, seen[seat], rng)
                assert R.view(other, seat) == R.view(state, seat)
                acts = R.legal_actions(state, seat)
                assert R.legal_actions(other, seat) == acts
                probes = acts + [{"type": "Match", "window_id": state.last_window_id, "slot": x}
                                 for x in ("A", "B", "C", "D", "E1")]
                probes += [{"type": "Draw", "source": "stock"}, {"type": "Replace", "slot": "A", "close": False}]
                probes += [{"type": "PlaceOrder", "rank": "4", "claim": "Match", "slot": x} for x in ("A", "D", "E1")]
                probes += [{"type": "PlaceOrder", "rank": "K", "claim": "MatchRival", "rival": (seat + 1) % n,
                            "rival_slot": "A", "give_slot": "B"}, {"type": "CancelOrder", "order_id": 1}]
                assert _probe(other, seat, probes) == _probe(state, seat, probes)
                compared += 1
                with_orders += bool(state.book.live)
    assert compared > 50 and with_orders > 10
