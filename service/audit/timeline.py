"""A readable timeline of an exported game, judged claims highlighted.

One line per command (the events it produced, grouped by ``command_id``), one block
per judged claim (any event that states an ``outcome`` or an ``explanation``:
snaps, matches, multi-discards, calls, declarations); wrong, late and failed ones
are marked ``!!``. Verification failures are shown at their version.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from service.audit.log import read_log
from service.audit.report import verdict
from service.audit.verify import Report

BAD = frozenset({"wrong", "late", "failed", "false", "lost", "rejected", "invalid"})


def _short(value: Any, limit: int = 90) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _outcome(data: Mapping[str, Any]) -> str | None:
    for k in ("outcome", "call_outcome", "close_outcome"):
        if isinstance(data.get(k), str):
            return str(data[k])
    if data.get("caller_won") is False:
        return "failed"
    if data.get("caller_won") is True:
        return "won"
    return None


def is_judged(event: Mapping[str, Any]) -> bool:
    data = event.get("data")
    return isinstance(data, Mapping) and ("explanation" in data or _outcome(data) is not None)


def judged_block(event: Mapping[str, Any], who: Mapping[int, str]) -> list[str]:
    data = event["data"]
    outcome = _outcome(data) or "—"
    bad = outcome.lower() in BAD
    actor = next((data[k] for k in ("actor", "caller", "declarer", "closer", "seat") if isinstance(data.get(k), int)),
                 None)
    head = f"{'!!' if bad else '=='} {event['type']}"
    if data.get("kind"):
        head += f" ({data['kind']})"
    if actor is not None:
        head += f" by {who.get(actor, f'seat {actor}')}"
    head += f": {outcome.upper()}"
    lines = [head]
    facts = {k: data[k] for k in ("window_id", "window_card", "targets", "revealed", "totals", "declarer_total",
                                  "lowest_other") if data.get(k) not in (None, [], ())}
    if facts:
        lines.append("   facts: " + _short(facts, 160))
    if data.get("explanation"):
        lines.append("   why:   " + str(data["explanation"]))
    rule = data.get("rule")
    opts = data.get("options_applied")
    if rule or opts:
        lines.append("   rule:  " + " ".join(x for x in (str(rule or ""), _short(opts) if opts else "") if x))
    return lines


def render(export: Mapping[str, Any], report: Report | None = None) -> str:
    events: Sequence[dict[str, Any]] = export.get("events") or []
    log = read_log(events)
    who = {s: f"seat {s} ({name})" for s, name in log.names.items()}
    out = [f"facedown audit: {log.ruleset_name} game {export.get('game_id')}, {log.players} seat(s): "
           + ", ".join(who[s] for s in sorted(who)),
           f"status {export.get('status')}, events 1..{export.get('upto_version')}"
           + ("" if export.get("complete") else " (finished rounds only)")]
    by_version: dict[int, list[str]] = {}
    for f in (report.failures if report else []):
        if f.version is not None:
            by_version.setdefault(f.version, []).append(f"XX {f.check}: {f.message}")
    disputes = 0
    i = 0
    while i < len(events):
        e = events[i]
        j = i + 1  # one append = the events that share the command's metadata
        while j < len(events) and events[j].get("metadata") == e.get("metadata"):
            j += 1
        group = events[i:j]
        meta: Mapping[str, Any] = e["metadata"] if isinstance(e.get("metadata"), Mapping) else {}
        seat = log.seat_for(meta)
        actor = who.get(seat, "system") if seat is not None else str(meta.get("actor") or "system")
        span = f"v{group[0]['version']}" + (f"-{group[-1]['version']}" if len(group) > 1 else "")
        command = meta.get("command")
        did = _short(command, 70) if command else "-"
        out.append(f"{span:<10} {str(meta.get('at') or ''):<21} {actor:<18} {did}  -> "
                   + ", ".join(str(g.get("type")) for g in group))
        for g in group:
            if is_judged(g):
                disputes += 1
                out.extend("           " + line for line in judged_block(g, who))
            for msg in by_version.get(int(g.get("version", 0)), []):
                out.append(f"           {msg} (version {g.get('version')})")
        i = j
    out.append(f"judged claims: {disputes}")
    if report is not None:
        out.append("verification: " + ", ".join(f"{k} {v}" for k, v in report.status.items())
                   + (f"; checked {report.checked}" if report.checked else ""))
        out.extend(verdict(report, bool(export.get("complete")), export.get("upto_version")))
    return "\n".join(out) + "\n"
