"""Leaks: whole games of every ruleset played through the API by the conformance kit
(``service.tools.contract.conformance``), at several seat counts and seeds; once each game is over,
every view its seats were served is held against the revealed audit (no card a seat had not
been shown, the very table the log gives that seat at that version), every response against
``openapi.yaml``, and the hash chain verified offline."""
from __future__ import annotations

from typing import Any

from service.tools.check.harness import Row, Settings, run_threads
from service.tools.contract.check import Contract
from service.tools.contract.conformance import play_one
from service.usecases.lobby import available

SEATS = (2, 3, 4)
#: the quick form's games: one short round each (the full form plays the kit's own, a few rounds)
ONE_ROUND: dict[str, dict[str, Any]] = {
    "corte": {"target_score": 1, "common.round_turn_limit": 6},
    "cuatro-cartas": {"rounds": 1, "common.round_turn_limit": 6},
    "pedro": {"match_mode": "rounds", "rounds": 1, "common.round_turn_limit": 6},
    "least-score": {"elimination_threshold": 25, "common.round_turn_limit": 6},
}


def run(settings: Settings) -> list[Row]:
    say = settings.progress
    games = settings.pick(3, 1)
    contract = Contract.load()
    names = available()
    rows: dict[str, Row] = {}
    with settings.served() as (_, srv):
        say(f"leaks: {games} game(s) of each of {', '.join(names)}, the rulesets side by side")
        options = ONE_ROUND if settings.quick else {}
        run_threads([lambda n=n: rows.__setitem__(n, _ruleset(srv.url, n, games, contract, options.get(n)))
                     for n in names])
    return [rows[n] for n in names if n in rows] + [Row("leaks", n, {}, False, "the check itself broke")
                                                    for n in names if n not in rows]


def _ruleset(base: str, ruleset: str, games: int, contract: Contract, options: dict[str, Any] | None) -> Row:
    totals: dict[str, list[int]] = {}
    problems: list[str] = []
    for g in range(games):
        try:
            checks = play_one(base, ruleset, SEATS[g % len(SEATS)], g + 1, contract, options)
        except Exception as exc:  # noqa: BLE001 - a game the server breaks fails the row, the rest go on
            problems.append(f"game {g + 1}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        for c in checks:
            checked, failed = totals.setdefault(c.check, [0, 0])
            totals[c.check] = [checked + c.checked, failed + c.failed]
            if not c.ok:
                problems.append(f"{c.check}: {c.detail}")
    return _row(ruleset, games, totals, problems)


def _row(ruleset: str, games: int, totals: dict[str, list[int]], problems: list[str]) -> Row:
    def n(check: str, i: int) -> int:
        return totals.get(check, [0, 0])[i]

    figures: dict[str, Any] = {
        "games": games, "seats": ", ".join(str(SEATS[g % len(SEATS)]) for g in range(games)),
        "responses checked": n("schema", 0), "off the contract": n("schema", 1),
        "views checked": n("no unseen card", 0), "unseen cards named": n("no unseen card", 1),
        "views unlike the audit": n("views match the audit", 1),
        "events verified": n("chain", 0), "chain failures": n("chain", 1),
    }
    ok = not problems and figures["views checked"] > 0 and figures["events verified"] > 0
    return Row("leaks", ruleset, figures, ok, "; ".join(problems[:3]))
