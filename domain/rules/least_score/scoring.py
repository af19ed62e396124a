"""Least Score: the reveal, the judged declaration, elimination and game end.

Everything here runs in ``decide`` when a round ends, and returns events; ``evolve``
only applies them.
"""
from __future__ import annotations

from domain import table
from domain.cards import french_pack, packs
from domain.rules.least_score.model import (
    GameEnded, LeastState, Opts, PlayerEliminated, RoundDealt, RoundRevealed, RoundScored, TiebreakRound,
)
from domain.rules.least_score.sets import hand_total
from domain.tiebreak import break_tie

HAND_SIZE = 5


def clockwise(seat: int, players: int, seated: tuple[int, ...]) -> int:
    return table.next_seat(seat, players, 1, seated)


def deal(players: int, opts: Opts, round_no: int, dealer: int, starter: int,
         seated: tuple[int, ...], key: bytes) -> RoundDealt:
    """Shuffle the packs and deal 5 cards to each seated player, from the starter on."""
    order = table.deal(key, round_no, packs(french_pack(opts.jokers), opts.decks))
    commitment, salt = table.commitment(key, round_no, 0, order)
    hands: list[tuple[str, ...]] = [() for _ in range(players)]
    seat, pos = starter, 0
    for _ in seated:
        hands[seat] = order[pos:pos + HAND_SIZE]
        pos += HAND_SIZE
        seat = clockwise(seat, players, seated)
    upcard = order[pos] if opts.initial_upcard else None
    if upcard is not None:
        pos += 1
    return RoundDealt(round=round_no, dealer=dealer, starter=starter, seated=seated,
                      counts=tuple(len(h) for h in hands), upcard=upcard, commitment=commitment,
                      hands=tuple(hands), stock=order[pos:], order=order, salt=salt)


def reveal(state: LeastState) -> RoundRevealed:
    totals = tuple(hand_total(h) if p in state.seated else None for p, h in enumerate(state.hands))
    orders = tuple({"shuffle_no": no, "order": order, "salt": salt, "commitment": commitment}
                   for no, order, salt, commitment in state.orders)
    return RoundRevealed(round=state.round, hands=state.hands, totals=totals, orders=orders)


def _applied(opts: Opts) -> dict[str, object]:
    return {"declare_tie_is_false": opts.declare_tie_is_false,
            "elimination_threshold": opts.elimination_threshold, "eliminate_at": opts.eliminate_at}


def judge(state: LeastState, declarer: int | None) -> tuple[RoundScored, int | None]:
    """Round scores, and the seat that "won" the round (for ``round_starter``)."""
    n, seated, opts = state.players, state.seated, state.opts
    totals = {p: hand_total(state.hands[p]) for p in seated}
    scores = [0] * n
    if declarer is None:
        # A round stopped by common.round_turn_limit has no declarer: everyone scores
        # their own total, as the rules say of a round ended with nobody calling.
        for p in seated:
            scores[p] = totals[p]
        low = min(totals.values())
        winner = next(p for p in _from(state.starter, n, seated) if totals[p] == low)
        scored = RoundScored(
            round=state.round, reason="turn_limit", declarer=None, declarer_total=None, lowest_other=None,
            outcome="no_declarer", round_scores=tuple(scores),
            cumulative=tuple(a + b for a, b in zip(state.scores, scores)), rule="RULES §2.7",
            options_applied={"common.round_turn_limit": opts.round_turn_limit},
            explanation=f"The round reached the turn limit of {opts.round_turn_limit}; "
                        "with no declarer, every player scores their own total.")
        return scored, winner
    d = totals[declarer]
    others = [p for p in _from(declarer, n, seated) if p != declarer]
    m = min(totals[p] for p in others)
    success = d < m or (d == m and not opts.declare_tie_is_false)
    if success:
        for p in others:
            scores[p] = totals[p] - d
        winner = declarer
        explanation = (f"Seat {declarer} declared with {d}, below the lowest other total {m}"
                       f"{' (a tie counts as success)' if d == m else ''}: the declarer scores 0 and "
                       f"every other player scores their total minus {d}.")
    else:
        scores[declarer] = 20 + d - m
        winner = next(p for p in others if totals[p] == m)
        why = "tied with" if d == m else "above"
        explanation = (f"Seat {declarer} declared with {d}, {why} the lowest other total {m}: a false "
                       f"declaration scores 20 + ({d} - {m}) = {20 + d - m}, everyone else 0.")
    scored = RoundScored(
        round=state.round, reason="declare", declarer=declarer, declarer_total=d, lowest_other=m,
        outcome="success" if success else "false", round_scores=tuple(scores),
        cumulative=tuple(a + b for a, b in zip(state.scores, scores)), rule="RULES §4.5",
        options_applied=_applied(opts), explanation=explanation)
    return scored, winner


def _from(seat: int, players: int, seated: tuple[int, ...]) -> list[int]:
    """Seated seats in turn order, starting at ``seat``."""
    return sorted(seated, key=lambda p: (p - seat) % players)


def _is_out(score: int, opts: Opts) -> bool:
    t = opts.elimination_threshold
    return score >= t if opts.eliminate_at == "reach" else score > t


def after_round(state: LeastState, scored: RoundScored, winner: int | None, key: bytes) -> list[object]:
    """Eliminations, then the game's end or the next deal."""
    opts = state.opts
    cum, seated = scored.cumulative, state.seated
    events: list[object] = []
    if state.playoff:
        candidates = seated
        reason = "tiebreak round"
    else:
        out = tuple(p for p in seated if _is_out(cum[p], opts))
        events += [PlayerEliminated(p, cum[p], opts.elimination_threshold, opts.eliminate_at) for p in out]
        remaining = tuple(p for p in seated if p not in out)
        if len(remaining) >= 2 and not (out and opts.end_on_first_elimination):
            return events + [_next_deal(state, remaining, winner, key)]
        if len(remaining) == 1:
            events.append(GameEnded((remaining[0],), cum, "last_player_standing",
                                    f"Seat {remaining[0]} is the only player left."))
            return events
        candidates = remaining or seated
        reason = "first elimination" if remaining else "every remaining player went out together"
    low = min(cum[p] for p in candidates)
    level = tuple(p for p in candidates if cum[p] == low)
    tied = break_tie(level, scored.round_scores, opts.tiebreak)
    if tied is None:
        events.append(TiebreakRound(level, f"Seats {list(level)} tie on {low} ({reason}); they play another round."))
        nxt = _next_deal(state, level, winner, key)
        return events + [nxt]
    events.append(GameEnded(tied, cum, "lowest_score",
                            f"{reason.capitalize()}: the lowest cumulative score ({low}) wins"
                            f"{' (shared)' if len(tied) > 1 else ''}."))
    return events


def _next_deal(state: LeastState, seated: tuple[int, ...], winner: int | None, key: bytes) -> RoundDealt:
    n = state.players
    if state.opts.round_starter == "previous_round_winner" and winner in seated:
        assert winner is not None
        starter = winner
        dealer = table.next_seat(starter, n, -1, seated)
    else:
        dealer = clockwise(state.dealer, n, seated)
        starter = clockwise(dealer, n, seated)
    return deal(n, state.opts, state.round + 1, dealer, starter, seated, key)
