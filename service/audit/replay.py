"""Re-adjudication: the ruleset's ``start`` and every stored command replayed through
``decide`` with the game key reproduce the stored ruleset events."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import codec
from domain.errors import RuleError
from domain.ruleset import Ruleset
from service.audit.log import GameLog
from service.audit.report import Checker, Report


def replayable(c: Checker, log: GameLog, key: bytes | None) -> Ruleset | None:
    """The log's ruleset when ``key`` and the ruleset are known; else ``None``, the check skipped."""
    ruleset = log.ruleset
    if not log.ruleset_events():
        c.done("the cards were never dealt")
        return None
    if key is None or ruleset is None:
        c.done("needs the revealed secret" if key is None else "unknown ruleset")
        return None
    return ruleset


def _parse(ruleset: Any, command: Any) -> Any:
    try:
        return ruleset.parse_command(command)
    except RuleError:
        # tolerate transport fields the service may have kept beside the command
        cls = ruleset.command_types.get(command.get("type")) if isinstance(command, Mapping) else None
        if cls is None:
            raise
        names = {f for f in getattr(cls, "__dataclass_fields__", {})} | {"type"}
        return ruleset.parse_command({k: v for k, v in command.items() if k in names})


def _diff(produced: dict[str, Any], stored: dict[str, Any]) -> str:
    if produced.get("type") != stored.get("type"):
        return f"replay produced {produced.get('type')}, the log has {stored.get('type')}"
    fields = sorted(k for k in set(produced["data"]) | set(stored["data"])
                    if produced["data"].get(k) != stored["data"].get(k))
    return f"{stored['type']}: field(s) {', '.join(fields)} differ from what the rules produce"


def check_readjudication(log: GameLog, key: bytes | None, report: Report) -> None:
    """start() and every command through decide() reproduce the stored events."""
    c = Checker(report, "readjudication")
    ruleset = replayable(c, log, key)
    if ruleset is None or key is None:
        return
    stored = log.ruleset_events()
    plain = [{"type": e["type"], "data": e["data"]} for e in stored]

    def compare(produced: list[Any], at: int) -> int | None:
        """Index of the first stored event that differs (None: all equal)."""
        for j, ev in enumerate(produced):
            got = {"type": type(ev).__name__, "data": codec.to_json(ev)}
            if at + j >= len(plain):
                c.fail(f"replay produced {got['type']} beyond the end of the log", int(stored[-1]["version"]))
                return at + j
            if got != plain[at + j]:
                c.fail(_diff(got, plain[at + j]), int(stored[at + j]["version"]))
                return at + j
        return None

    try:
        options = ruleset.resolve_options(log.options, log.players)
        started = list(ruleset.start(log.players, options, key))
    except Exception as exc:
        c.fail(f"start() refused the recorded options: {exc}", value="options")
        c.done()
        return
    if not stored:
        c.done()
        return
    if compare(started, 0) is not None:
        c.done()
        return
    state: Any = None
    for ev in started:
        state = ruleset.evolve(state, ev)
    i = len(started)
    # One command per append: its events share the command's metadata. The number of
    # events the replayed command produces says where the next command starts (the
    # command id may be null when the client sent no Idempotency-Key).
    while i < len(stored):
        meta = stored[i].get("metadata") or {}
        v = int(stored[i]["version"])
        command = meta.get("command")
        if command is None:
            c.fail(f"{stored[i]['type']} has no recorded command to replay", v)
            break
        try:
            produced = list(ruleset.decide(state, log.seat_for(meta), _parse(ruleset, command), key))
        except RuleError as exc:
            c.fail(f"the rules refuse the recorded command {command.get('type')}: {exc}", v)
            break
        except Exception as exc:
            c.fail(f"replaying the recorded command failed: {type(exc).__name__}: {exc}", v)
            break
        if not produced:
            c.fail("the recorded command produces no event on replay", v)
            break
        if compare(produced, i) is not None:
            break
        odd = next((k for k in range(i + 1, i + len(produced)) if (stored[k].get("metadata") or {}) != meta), None)
        if odd is not None:
            c.fail("this event is not recorded with the metadata of the command that produced it",
                   int(stored[odd]["version"]))
            break
        for ev in produced:
            state = ruleset.evolve(state, ev)
        report.checked["commands replayed"] = report.checked.get("commands replayed", 0) + 1
        i += len(produced)
    c.done()


