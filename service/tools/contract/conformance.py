"""``facedown conformance BASE_URL``: prove a server (facedown, a fork, a proxy) keeps the contract.

Through the public API only, it plays one game of each ruleset with one player per seat
(the SDK's ``play_seats`` and facedown's greedy bots), then checks:

* **schema**: every response it received validates against this kit's ``openapi.yaml``
  (the status and media type documented, the body the documented schema);
* **no unseen card**: no view (its table or its legal actions) ever names a card that its
  seat had not been shown in its own events since that round's deal;
* **views match the audit**: once the game is over, the audit export reveals everything;
  replaying it with the reference rules gives, at each version, exactly the table that
  was served to that seat;
* **chain**: the audit export verifies offline (hash chain, commitments, deals, replay);
* **legal actions bounded**: no view lists more than a few hundred ``legal_actions``
  (``MOST_LEGAL_ACTIONS``; where a field may take many values, one entry names them in its
  ``choices``).

It prints one row per ruleset and check, and exits non-zero on any failure.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import requests

from domain import bots, rules
from domain.ruleset import MOST_LEGAL_ACTIONS
from facedown_client import Client, play_seats
from service.audit.log import build_event, read_log
from service.audit.verify import verify_export
from service.tools.contract.check import Contract

#: options that keep a conformance game short (a few rounds of a few turns)
SHORT: dict[str, dict[str, Any]] = {
    "least-score": {"elimination_threshold": 25, "common.round_turn_limit": 12},
    "pedro": {"match_mode": "rounds", "rounds": 2, "common.round_turn_limit": 12},
    "cuatro-cartas": {"rounds": 2, "common.round_turn_limit": 12},
    "corte": {"target_score": 30, "common.round_turn_limit": 12},
}
CHECKS = ("schema", "no unseen card", "views match the audit", "chain", "legal actions bounded")
_CARD = re.compile(r"^(JK|(A|[2-9]|1[0-2]?|J|Q|K)[SHDCOEB])$")


@dataclass
class Row:
    ruleset: str
    check: str
    ok: bool
    detail: str = ""
    checked: int = 0  # responses, views or events the check went through
    failed: int = 0  # how many of them failed it


@dataclass
class _Recorder:
    """Every response of one seat's client: the contract check, and the views it was served."""

    contract: Contract
    failures: list[str] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)
    responses: int = 0

    def __call__(self, r: requests.Response) -> None:
        self.responses += 1
        path = requests.utils.urlparse(r.url).path
        ctype = r.headers.get("Content-Type", "")
        body: Any = None
        if "json" in ctype and r.content:
            body = r.json()
        problems = self.contract.response_errors(r.request.method or "GET", path, r.status_code, ctype, body)
        self.failures += problems
        if r.status_code == 200 and isinstance(body, dict):
            if path.endswith("/view"):
                self.views.append(body)
            elif path.endswith("/commands"):
                self.views.append(body["view"])


def cards_in(value: Any) -> Iterator[str]:
    """Every card code in a JSON value."""
    if isinstance(value, str):
        if _CARD.match(value):
            yield value
        elif value.startswith("open:") and _CARD.match(value[5:]):
            yield value[5:]
    elif isinstance(value, dict):
        for v in value.values():
            yield from cards_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from cards_in(v)


def unseen_cards(views: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]) -> list[str]:
    """Where a seat's view names a card that no event of its own stream showed it this round."""
    out = []
    for view in views:
        version = view["version"]
        deals = [e["version"] for e in events if e["type"] == "RoundDealt" and e["version"] <= version]
        since = deals[-1] if deals else 0
        shown = {c for e in events if since <= e["version"] <= version for c in cards_in(e["data"])}
        named = set(cards_in(view.get("table"))) | set(cards_in(view.get("legal_actions")))
        if named - shown:
            out.append(f"seat {view['seat']} at version {version}: {sorted(named - shown)} never shown to it")
    return out


def long_listings(views: Sequence[dict[str, Any]]) -> list[str]:
    """Where a view lists more legal actions than any state of any game may."""
    return [f"seat {v['seat']} at version {v['version']}: {len(v['legal_actions'])} legal actions"
            for v in views if len(v.get("legal_actions") or ()) > MOST_LEGAL_ACTIONS]


def audit_mismatches(export: dict[str, Any], views: Sequence[dict[str, Any]]) -> list[str]:
    """Where a served table differs from the table the revealed log gives that seat at that version."""
    log = read_log(export["events"])
    rs = rules.get(str(log.ruleset_name))
    by_version: dict[int, list[dict[str, Any]]] = {}
    for v in views:
        by_version.setdefault(v["version"], []).append(v)
    out, state = [], None
    for e in export["events"]:
        if e["type"] in rs.event_types:
            state = rs.evolve(state, build_event(rs, e))
        for v in by_version.get(int(e["version"]), ()):
            want = None if state is None else json.loads(json.dumps(rs.view(state, v["seat"])))
            if v["table"] != want:
                out.append(f"seat {v['seat']} at version {v['version']}: the served table differs from the audit's")
    return out


def play_one(base_url: str, ruleset: str, seats: int, seed: int, contract: Contract,
             options: dict[str, Any] | None = None) -> list[Row]:
    """One game of ``ruleset`` (with ``options``, by default ``SHORT``'s), every check on it."""
    recorders = [_Recorder(contract) for _ in range(seats)]
    clients = []
    for i, rec in enumerate(recorders):
        c = Client(base_url)
        c.on_response = rec
        c.register(f"conformance-{ruleset}-{i}")
        clients.append(c)
    chosen = SHORT.get(ruleset, {}) if options is None else options
    game = clients[0].create_game(ruleset, seats, chosen, name=f"conformance {ruleset}")
    for c in clients[1:]:
        c.join(game.id)
    play_seats(clients, game.id, bots.policy(ruleset, "greedy"), seed=seed)
    streams = [[_plain(e) for e in c.events(game.id, follow=False)] for c in clients]
    export = clients[0].request("GET", f"/v1/games/{game.id}/audit")
    views = [v for rec in recorders for v in rec.views if v.get("table") is not None]
    schema = [f for rec in recorders for f in rec.failures]
    unseen = [f for s, rec in enumerate(recorders) for f in unseen_cards(rec.views, streams[s])]
    mismatch = audit_mismatches(export, views)
    report = verify_export(export)
    chain = [f"{f.check} at {f.version}: {f.message}" for f in report.failures]
    long = long_listings(views)
    responses = sum(rec.responses for rec in recorders)
    return [Row(ruleset, "schema", not schema, _first(schema) or f"{responses} responses", responses, len(schema)),
            Row(ruleset, "no unseen card", not unseen, _first(unseen) or f"{len(views)} views", len(views),
                len(unseen)),
            Row(ruleset, "views match the audit", not mismatch, _first(mismatch) or f"{len(views)} views",
                len(views), len(mismatch)),
            Row(ruleset, "chain", report.ok, _first(chain) or f"{len(export['events'])} events",
                len(export["events"]), len(chain)),
            Row(ruleset, "legal actions bounded", not long,
                _first(long) or f"at most {max((len(v['legal_actions']) for v in views), default=0)} a view",
                len(views), len(long))]


def _plain(event: Any) -> dict[str, Any]:
    return {"version": event.version, "type": event.type, "data": event.data}


def _first(items: list[str]) -> str:
    return "" if not items else items[0] + (f" (+{len(items) - 1} more)" if len(items) > 1 else "")


def run(base_url: str, rulesets: Sequence[str] | None = None, seats: int = 3, seed: int = 1,
        contract: Contract | None = None) -> list[Row]:
    contract = contract or Contract.load()
    names = list(rulesets or [r["name"] for r in Client(base_url).rulesets()])
    rows: list[Row] = []
    for name in names:
        try:
            rows += play_one(base_url, name, seats, seed, contract)
        except Exception as exc:  # noqa: BLE001 - a server that breaks the game fails its row, the rest go on
            rows.append(Row(name, "play", False, f"{type(exc).__name__}: {str(exc)[:300]}"))
    return rows


def table(rows: Sequence[Row]) -> str:
    """The report as a plain-text table."""
    width = max((len(r.ruleset) for r in rows), default=7)
    lines = [f"{'ruleset':<{width}}  {'check':<22}  result  detail"]
    lines += [f"{r.ruleset:<{width}}  {r.check:<22}  {'pass' if r.ok else 'FAIL':<6}  {r.detail}" for r in rows]
    failed = sum(1 for r in rows if not r.ok)
    lines.append(f"{len(rows) - failed} of {len(rows)} checks pass" + (f"; {failed} FAIL" if failed else ""))
    return "\n".join(lines)

