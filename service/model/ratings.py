"""Ratings per ruleset (docs/ratings.md): how a finished game ranks its seats, whether it is
rated, and each player's new rating, by the Weng–Lin Plackett–Luce model of ``openskill``
with the package's default parameters, every seat a team of one. Pure: the adapter
(``service.adapters.ratings``) reads the ratings before and writes the ones after.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from domain import rules
from service.model.game import Game

MODEL = PlackettLuce()  # the defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
#: a rating is provisional while its sigma is at or above this (it starts at 25/3 ≈ 8.33; with
#: the defaults, 10 to 17 games against players of all sorts bring it below 6: docs/ratings.md)
PROVISIONAL_SIGMA = 6.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one ruleset: the model's mu and sigma, and the rated games it counts."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def rating(self) -> float:
        """What the leaderboard orders by: a cautious estimate, mu − 3σ."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA

    def public(self) -> dict[str, float]:
        return {"rating": self.rating, "mu": self.mu, "sigma": self.sigma}


@dataclass(frozen=True, slots=True)
class Change:
    """One seat's rating in a rated game, before and after it."""

    seat: int
    player_id: str
    rank: int
    before: Rating
    after: Rating

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "player_id": self.player_id, "rank": self.rank,
                "before": self.before.public(), "after": self.after.public()}


def is_rated(game: Game) -> bool:
    """A game counts if it was opened rated (the default) and, when its creator did not say,
    if no bot account sits in it. Only a finished game is ever rated (not aborted, not cancelled)."""
    if game.rated is not None:
        return game.rated
    return not any(s is not None and s.bot_account for s in game.seats)


def ranks(game: Game) -> list[int]:
    """Each seat's rank, 1 the best: the winners first, then the others by final score (lower
    is better), equal results sharing a rank; the seats that resigned or that a bot plays
    after timeouts (their players gone) share the last rank."""
    scores = rules.get(game.ruleset).scores(game.rules) if game.rules is not None else (0,) * len(game.seats)
    gone = [s for s in range(len(game.seats)) if s in game.resigned or game.seat_status(s) == "bot"]
    return ranks_of(game.winners() or (), scores, gone)


def ranks_of(winners: Sequence[int], scores: Sequence[int], gone: Sequence[int]) -> list[int]:
    """:func:`ranks` from the facts: the winning seats, every seat's final score, the seats
    whose players are gone. A seat's rank is one more than the seats strictly better."""

    def key(seat: int) -> tuple[int, int]:
        if seat in gone:
            return (2, 0)
        return (0, 0) if seat in winners else (1, scores[seat])

    keys = [key(s) for s in range(len(scores))]
    return [1 + sum(1 for k in keys if k < mine) for mine in keys]


def rate(ranked: Sequence[int], before: Sequence[Rating]) -> list[Rating]:
    """The ratings after one game, ``ranked`` and ``before`` per seat: one update in which
    every seat is a team of one."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranked])
    return [Rating(team[0].mu, team[0].sigma, r.games + 1) for team, r in zip(after, before)]


def changes(game: Game, current: Mapping[str, Rating]) -> list[Change]:
    """The changes a finished rated game makes, from each player's ``current`` rating in its
    ruleset (a player not in it has none yet)."""
    ranked = ranks(game)
    players = [s.player_id if s is not None else "" for s in game.seats]
    before = [current.get(p, Rating()) for p in players]
    after = rate(ranked, before)
    return [Change(i, p, ranked[i], b, a) for i, (p, b, a) in enumerate(zip(players, before, after))]
