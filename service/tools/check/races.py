"""Races: sixteen clients on shared games (Corte and 4 Cartas, four seats each), every seat
claiming snap windows as soon as it hears of them, a third of the commands sent twice at once
with one Idempotency-Key and some sent again later. The log must hold every acknowledged
command exactly once, versions without gaps, and no window won twice."""
from __future__ import annotations

import random
import threading
import time
from collections import Counter

from service.tools.check.harness import Row, Settings, Statuses, check_log, first, run_threads
from service.tools.check.seat_players import Behaviour, SeatPlayer, seat_players
from service.tools.contract.conformance import SHORT

#: the shared games: Corte wins a window once by its rules; 4 Cartas does with this option
GAMES = (("corte", {}), ("cuatro-cartas", {"single_match_per_discard": True}))
BEHAVIOUR = Behaviour(twins=0.3, replays=0.1, blind=0.5)


def run(settings: Settings) -> list[Row]:
    say = settings.progress
    games = settings.pick(4, 2)
    seats = 4
    seconds = settings.pick(60.0, 5.0)
    statuses = Statuses()
    with settings.served() as (url, srv):
        tables: list[tuple[str, str, list[SeatPlayer]]] = []
        for i in range(games):
            ruleset, extra = GAMES[i % len(GAMES)]
            gid, players = seat_players(srv.url, statuses, ruleset, seats, {**SHORT[ruleset], **extra}, f"race-{i}")
            tables.append((ruleset, gid, players))
        say(f"races: {games * seats} clients on {games} games, {seconds:.0f} s at most")
        stop = threading.Event()
        until = time.monotonic() + seconds
        rng = random.Random(7)
        jobs = [lambda p=p, g=gid, r=ruleset, s=rng.randrange(10**9): p.play(g, r, BEHAVIOUR, random.Random(s),
                                                                            until, stop)
                for ruleset, gid, players in tables for p in players]
        t0 = time.monotonic()
        crashed = run_threads(jobs)
        took = time.monotonic() - t0
        seats_all = [p for _, _, players in tables for p in players]
        acks = [a for p in seats_all for a in p.record.acks]
        log = check_log(url, acks)
        finished = _finished(tables)
    records = [p.record for p in seats_all]
    differing: dict[str, list[str]] = {}
    for r in records:
        for kind, found in r.differing.items():
            differing.setdefault(kind, []).extend(found)
    wrong = differing.get("refused though applied", [])
    refused = sum((r.refused for r in records), start=Counter())
    errors = [e for r in records for e in r.errors] + [f"{type(e).__name__}: {e}" for e in crashed]
    duplicated = log.duplicated + differing.get("applied twice", [])
    figures = {
        "clients": len(seats_all), "games": games, "finished": finished, "seconds": round(took, 1),
        "acknowledged": log.acknowledged, "found in the log": log.found, "lost": len(log.lost),
        "duplicated": len(duplicated), "gaps": len(log.gaps),
        "twin sends (one key, at once)": sum(r.twins for r in records),
        "later replays": sum(r.replays for r in records), "refused though applied": len(wrong),
        "asked to retry while the first was in flight": len(differing.get("asked to retry", [])),
        "claims sent": sum(r.claims for r in records), "windows claimed": log.windows,
        "windows won twice": len(log.won_twice),
        "refusals": dict(sorted(refused.items())), "5xx other than 503": statuses.errors(),
        "503 (retried)": statuses.counts[503], "client errors": len(errors),
    }
    ok = (not log.lost and not duplicated and not wrong and not log.gaps and not log.won_twice
          and statuses.errors() == 0 and not errors and log.acknowledged > 0 and log.windows > 0)
    note = first(log.lost + duplicated + wrong + log.gaps + log.won_twice + statuses.server_errors + errors)
    if differing.get("asked to retry"):
        note = (note + "; " if note else "") + ("a duplicate that lost every optimistic round to other seats "
                                                "while its first was in flight got 409 conflict (try again); "
                                                "sent again, it got the first answer")
    say(f"races: {log.acknowledged} acknowledged, {len(log.lost)} lost, {len(duplicated)} duplicated, "
        f"{log.windows} windows, {len(log.won_twice)} won twice")
    return [Row("races", "16 clients, racing claims and keys" if games * seats == 16 else
                f"{games * seats} clients, racing claims and keys", figures, ok, note)]


def _finished(tables: list[tuple[str, str, list[SeatPlayer]]]) -> int:
    return sum(1 for _, gid, players in tables if players[0].client.game(gid).status == "finished")
