"""A tournament as the service folds it from its own stream (docs/tournaments.md).

A tournament is a stream of kind ``tournament`` beside the games' streams. Its events:
``TournamentOpened``, ``PlayerJoined``, ``PlayerLeft``, ``TournamentStarted``,
``RoundPaired`` (the tables, each an ordinary game whose id is derived from the tournament's,
the round's and the table's, and for a duplicate tournament the board's commitment),
``RoundEnded`` (each table's result, the board's seed revealed), ``TournamentFinished`` and
``TournamentCancelled``. Its state, its standings and every list of tournaments are
projections of these events; the pairings and points are :mod:`domain.tournaments`'. Pure.
"""
from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain import tournaments as rules
from service.model.problems import Problem

KIND = "tournament"
FORMATS = ("swiss", "round_robin")
# a table's game id and a board's secret row are derived, so that forming a round twice (two
# workers, or a retry after a crash) names the same games and the same seed
_NS = uuid.UUID("6d1f3c0e-2a57-4f7e-b1f4-9a3c5e7d2b10")


def table_id(tournament: str, n: int, table: int) -> uuid.UUID:
    return uuid.uuid5(_NS, f"{tournament}/round/{n}/table/{table}")


def board_id(tournament: str, n: int) -> uuid.UUID:
    """Where the seed of round ``n``'s board is kept (a secret row of its own, like a game's)."""
    return uuid.uuid5(_NS, f"{tournament}/board/{n}")


@dataclass(frozen=True, slots=True)
class Table:
    game_id: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Round:
    n: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    commitment: str | None = None  # sha256(seed) of the round's board (duplicate only)
    seed: str | None = None  # revealed when the round ends
    results: tuple[rules.TableResult, ...] | None = None  # None while the round is played

    def record(self, duplicate: bool) -> rules.RoundRecord:
        pairing = rules.Pairing(tuple(t.players for t in self.tables), self.byes)
        return rules.RoundRecord(pairing, self.results or (), duplicate)


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    ruleset: str
    options: dict[str, Any]
    format: str
    seats_per_table: int
    round_count: int | None  # a round robin's is known when it starts
    time_control: dict[str, int] | None
    duplicate: bool
    max_players: int
    starts_at: str | None
    creator: str
    created_at: str
    players: tuple[tuple[str, str], ...] = ()  # (id, name) in the order they joined
    status: str = "open"  # open | running | finished | cancelled
    rounds: tuple[Round, ...] = ()
    updated_at: str = ""

    def has(self, player: str | None) -> bool:
        return any(p == player for p, _ in self.players)

    @property
    def ids(self) -> list[str]:
        return [p for p, _ in self.players]

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round_of(self, n: int) -> Round | None:
        return next((r for r in self.rounds if r.n == n), None)

    def records(self) -> list[rules.RoundRecord]:
        return [r.record(self.duplicate) for r in self.rounds if r.results is not None]


def _result(row: Mapping[str, Any]) -> rules.TableResult:
    return rules.TableResult(tuple(row["players"]), tuple(row["ranks"]), tuple(row["scores"]))


def evolve(t: Tournament | None, type_: str, data: Mapping[str, Any], at: str, stream_id: str) -> Tournament:
    """The tournament after one stored event."""
    if type_ == "TournamentOpened":
        return Tournament(stream_id, data["name"], data["ruleset"], dict(data["options"]), data["format"],
                          int(data["seats_per_table"]), data.get("rounds"), data.get("time_control"),
                          bool(data["duplicate"]), int(data["max_players"]), data.get("starts_at"),
                          data["creator"], at, updated_at=at)
    assert t is not None, "a tournament's stream starts with TournamentOpened"
    t = replace(t, updated_at=at)
    if type_ == "PlayerJoined":
        return replace(t, players=(*t.players, (data["player_id"], data["name"])))
    if type_ == "PlayerLeft":
        return replace(t, players=tuple(p for p in t.players if p[0] != data["player_id"]))
    if type_ == "TournamentStarted":
        return replace(t, status="running", round_count=int(data["rounds"]))
    if type_ == "RoundPaired":
        tables = tuple(Table(x["game_id"], tuple(x["players"])) for x in data["tables"])
        return replace(t, rounds=(*t.rounds, Round(int(data["n"]), tables, tuple(data["byes"]),
                                                   data.get("commitment"))))
    if type_ == "RoundEnded":
        done = tuple(_result(r) for r in data["results"])
        return replace(t, rounds=tuple(replace(r, results=done, seed=data.get("seed")) if r.n == data["n"] else r
                                       for r in t.rounds))
    if type_ == "TournamentFinished":
        return replace(t, status="finished")
    if type_ == "TournamentCancelled":
        return replace(t, status="cancelled")
    raise ValueError(f"unknown tournament event {type_}")


def fold(records: Iterable[Any]) -> Tournament | None:
    t: Tournament | None = None
    for rec in records:
        t = evolve(t, rec.type, rec.data, str((rec.metadata or {}).get("at") or ""), str(rec.stream_id))
    return t


# ------------------------------------------------------------------ decisions (events as (type, data))

Event = tuple[str, dict[str, Any]]


def _open(t: Tournament) -> None:
    if t.status != "open":
        raise Problem("tournament-not-open", f"the tournament is {t.status}")


def join(t: Tournament, player: str, name: str) -> list[Event]:
    if t.has(player):
        raise Problem("already-joined", "you are in this tournament already")
    _open(t)
    if len(t.players) >= t.max_players:
        raise Problem("tournament-full", f"the tournament has its {t.max_players} players")
    return [("PlayerJoined", {"player_id": player, "name": name})]


def leave(t: Tournament, player: str) -> list[Event]:
    if not t.has(player):
        raise Problem("not-in-tournament", "you are not in this tournament")
    _open(t)
    return [("PlayerLeft", {"player_id": player})]


def planned_rounds(t: Tournament) -> int:
    """Swiss: the rounds its creator asked for; round robin: every pair (or as evenly as the
    seats allow) once, unless the creator asked for fewer."""
    if t.format == "round_robin":
        full = rules.round_robin_rounds(len(t.players), t.seats_per_table)
        return min(full, t.round_count) if t.round_count else full
    return int(t.round_count or 1)


def start(t: Tournament, by: str | None, how: str) -> list[Event]:
    """``how``: ``creator`` (``by`` must be the creator), ``starts_at`` or ``full``."""
    if how == "creator" and by != t.creator:
        raise Problem("forbidden", "only the tournament's creator may start it")
    _open(t)
    if len(t.players) < t.seats_per_table:
        raise Problem("too-few-players", f"{len(t.players)} players; a table needs {t.seats_per_table}")
    return [("TournamentStarted", {"how": how, "rounds": planned_rounds(t)})]


def pairing(t: Tournament, n: int, ratings: Mapping[str, float]) -> rules.Pairing:
    """Round ``n``'s tables: a round robin's schedule, or Swiss by standings then rating."""
    if t.format == "round_robin":
        return rules.round_robin_pairing(t.ids, t.seats_per_table, n)
    points = {s.player: s.points for s in standings(t, ratings)}
    order = sorted(t.ids, key=lambda p: (-points.get(p, 0.0), -ratings.get(p, 0.0), p))
    history = [r.record(t.duplicate).pairing for r in t.rounds]
    return rules.swiss_pairing(order, t.seats_per_table, history)


def paired(t: Tournament, n: int, plan: rules.Pairing, commitment: str | None) -> Event:
    tables = [{"game_id": str(table_id(t.id, n, i)), "players": list(players)}
              for i, players in enumerate(plan.tables)]
    data: dict[str, Any] = {"n": n, "tables": tables, "byes": list(plan.byes)}
    if commitment is not None:
        data["commitment"] = commitment
    return ("RoundPaired", data)


def ended(n: int, results: Sequence[tuple[str, rules.TableResult]], seed: str | None) -> Event:
    """Round ``n``'s ``RoundEnded``: each table's result (by game), and its board's seed."""
    rows = [{"game_id": gid, "players": list(r.players), "ranks": list(r.ranks), "scores": list(r.scores)}
            for gid, r in results]
    return ("RoundEnded", {"n": n, "results": rows, "seed": seed})


def standings(t: Tournament, ratings: Mapping[str, float] | None = None) -> tuple[rules.Standing, ...]:
    return rules.standings(t.ids, t.records(), ratings)


# ------------------------------------------------------------------ what callers see


def board_sealed(t: Tournament, n: int) -> bool:
    """Whether round ``n``'s board is still in play (its tables readable by their seats only)."""
    r = t.round_of(n)
    return t.duplicate and r is not None and r.results is None


def out(t: Tournament, version: int, ratings: Mapping[str, float] | None = None) -> dict[str, Any]:
    """The tournament as ``GET /v1/tournaments/{id}`` shows it."""
    names = dict(t.players)
    rounds = [{"n": r.n, "status": "playing" if r.results is None else "over",
               "tables": [{"game_id": x.game_id, "players": list(x.players)} for x in r.tables],
               "byes": list(r.byes)} for r in t.rounds]
    ranked = [{"rank": i + 1, "player": s.player, "name": names.get(s.player, ""), "points": s.points,
               "tiebreaks": list(s.tiebreaks), "games": s.games, "byes": s.byes}
              for i, s in enumerate(standings(t, ratings))]
    boards = [{"n": r.n, "commitment": r.commitment, "seed": r.seed} for r in t.rounds if t.duplicate]
    return {**listed(t), "options": t.options, "time_control": t.time_control, "version": version,
            "players": [{"id": p, "name": name} for p, name in t.players], "rounds": rounds,
            "standings": ranked, "boards": boards}


def listed(t: Tournament) -> dict[str, Any]:
    """What a list of tournaments shows of one (and the read model's row)."""
    return {"id": t.id, "name": t.name, "ruleset": t.ruleset, "format": t.format,
            "seats_per_table": t.seats_per_table, "round_count": t.round_count, "duplicate": t.duplicate,
            "max_players": t.max_players, "starts_at": t.starts_at, "creator": t.creator,
            "created_at": t.created_at, "updated_at": t.updated_at, "status": t.status,
            "player_count": len(t.players), "current_round": t.current.n if t.current else None}
