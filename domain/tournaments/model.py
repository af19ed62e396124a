"""The records a tournament's rules read and return: a round's pairing, a table's result, a
played round and a player's standing. Plain frozen data, player ids as strings."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round's seating: each table's players in seat order (seat 0 first), and those left out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableResult:
    """How one table ended: per seat, its place (1 the best; tied seats share one) and final score."""

    players: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A round as played so far: its pairing, the results of the tables that have ended (matched
    to the pairing's tables by their players), and whether all its tables played one board."""

    pairing: Pairing
    results: tuple[TableResult, ...]
    duplicate: bool

    def complete(self) -> bool:
        return len(self.results) == len(self.pairing.tables)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the standings; ``tiebreaks`` is (Buchholz, wins, head-to-head, rating)."""

    player: str
    points: float
    tiebreaks: tuple[float, ...]
    games: int
    byes: int
