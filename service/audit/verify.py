"""Verify an exported game with nothing but the export: no server, no database.

Checks, in this order (see ``docs/fairness.md``):

* **file**: the export's top-level copies (secret, entropy, head, the time/actor
  shown beside each event) agree with the chained events;
* **chain**: versions 1..n, each ``prev_hash`` is the previous ``hash``, each hash
  recomputes from the canonical body (:mod:`events.canonical`);
* **secret**: ``sha256(secret)`` is the commitment published in ``GameOpened``;
* **commitments**: every order revealed in ``RoundRevealed`` opens the commitment
  published at its deal/reshuffle, and every finished round revealed them all;
* **deals**: with the game key (secret + seat entropy, :func:`service.fairness.game_key`)
  every dealt and reshuffled order, salt and commitment is re-derived;
* **readjudication**: the ruleset's ``start`` and every stored command replayed
  through ``decide`` with the game key produce exactly the stored events.

Every failure names a version (or a value such as ``secret`` or ``entropy[1]``);
failures are sorted so that the first one is the earliest version.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from domain import chance, codec
from domain.errors import RuleError
from domain.ruleset import Ruleset
from events.canonical import GENESIS, chain_hash, event_body
from service import fairness
from service.audit.log import SHUFFLE_TYPES, GameLog, build_event, read_log

EVENT_KEYS = frozenset({"version", "type", "schema_version", "data", "metadata", "time", "actor",
                        "prev_hash", "hash"})
EXPORT_KEYS = frozenset({"format", "game_id", "ruleset", "status", "complete", "upto_version", "head",
                         "secret_commitment", "secret", "entropy", "events", "verification"})
CHECKS = ("file", "chain", "secret", "commitments", "deals", "readjudication")


@dataclass(frozen=True)
class Failure:
    check: str
    message: str
    version: int | None = None
    value: str | None = None

    def where(self) -> str:
        if self.version is not None:
            return f"version {self.version}"
        return self.value or "export"

    def __str__(self) -> str:
        return f"{self.where()}: [{self.check}] {self.message}"


@dataclass
class Report:
    failures: list[Failure] = field(default_factory=list)
    #: check -> "ok" | "failed" | "skipped: <why>"
    status: dict[str, str] = field(default_factory=dict)
    #: what was checked, counted (commands replayed, orders opened and derived)
    checked: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def first(self) -> Failure | None:
        def key(f: Failure) -> tuple[int, int, int]:
            # versions first (earliest wins), then named values; the export's own
            # copies (its claimed verification, its text form) only when nothing else fails
            if f.version is not None:
                return (0, f.version, CHECKS.index(f.check))
            return (2 if f.value in ("verification", "file") else 1, 0, CHECKS.index(f.check))
        return min(self.failures, key=key) if self.failures else None

    def summary(self) -> dict[str, Any]:
        """The JSON form (what the server embeds in an export under ``verification``)."""
        first = self.first()
        return {
            "ok": self.ok,
            "checks": dict(self.status),
            "first_failure": None if first is None else asdict(first),
            "failures": [asdict(f) for f in sorted(self.failures, key=lambda f: (f.version or 0, f.check))],
        }


class _Checker:
    def __init__(self, report: Report, name: str) -> None:
        self.report, self.name, self.failed = report, name, False

    def fail(self, message: str, version: int | None = None, value: str | None = None) -> None:
        self.failed = True
        self.report.failures.append(Failure(self.name, message, version, value))

    def done(self, skipped: str | None = None) -> None:
        self.report.status[self.name] = "failed" if self.failed else (f"skipped: {skipped}" if skipped else "ok")


def _hex(value: Any) -> bytes | None:
    try:
        return bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None


def check_chain(events: list[dict[str, Any]], report: Report, head: Any = None) -> None:
    c = _Checker(report, "chain")
    prev = GENESIS
    for i, e in enumerate(events, start=1):
        if e.get("version") != i:
            c.fail(f"expected version {i} here, found {e.get('version')!r}", i)
            break
        if _hex(e.get("prev_hash")) != prev:
            c.fail("prev_hash is not the previous event's hash", i)
            break
        try:
            body = event_body(e["type"], e["schema_version"], e["data"], e["metadata"])
        except (KeyError, TypeError, ValueError) as exc:
            c.fail(f"malformed event: {exc}", i)
            break
        if not isinstance(e["schema_version"], int) or chain_hash(prev, i, body) != _hex(e.get("hash")):
            c.fail("hash does not match the event's content", i)
            break
        prev = chain_hash(prev, i, body)
    else:
        if isinstance(head, Mapping):
            if head.get("version") != len(events) or _hex(head.get("hash")) != prev:
                c.fail("head (version, hash) is not the last event's", value="head")
    c.done()


def check_file(export: Mapping[str, Any], log: GameLog, report: Report) -> None:
    """Top-level copies must equal the chained facts they repeat."""
    c = _Checker(report, "file")
    for key in sorted((set(export) | {"verification"}) ^ EXPORT_KEYS):
        c.fail("unknown or missing key in the export", value=key)
    last = log.events[-1].get("version") if log.events else 0
    finished = log.finished()
    derived = {"format": "facedown-audit/1", "upto_version": last, "status": "finished" if finished else "active",
               "complete": finished}
    for key, want in derived.items():
        if export.get(key) != want:
            c.fail(f"is {export.get(key)!r}, the events say {want!r}", value=key)
    for e in log.events:
        if set(e) != EVENT_KEYS:
            c.fail(f"unknown or missing key(s) {sorted(set(e) ^ EVENT_KEYS)}", e.get("version"))
        meta: Mapping[str, Any] = e["metadata"] if isinstance(e.get("metadata"), Mapping) else {}
        for shown, source in (("time", "at"), ("actor", "actor")):
            if e.get(shown) != meta.get(source):
                c.fail(f"'{shown}' differs from metadata.{source}", e.get("version"))
    if export.get("secret") != log.secret:
        c.fail("differs from the SecretRevealed event", value="secret")
    if export.get("secret_commitment") != log.secret_commitment:
        c.fail("differs from the GameOpened event", value="secret_commitment")
    entropy = export.get("entropy")
    if not isinstance(entropy, list) or len(entropy) != len(log.entropy):
        c.fail("not one value per seat taken", value="entropy")
    else:
        for seat, value in enumerate(entropy):
            if log.entropy.get(seat) != value:
                c.fail("differs from the SeatTaken event", value=f"entropy[{seat}]")
    if export.get("ruleset") != log.ruleset_name:
        c.fail("differs from the GameOpened event", value="ruleset")
    c.done()


def check_secret(log: GameLog, report: Report) -> bytes | None:
    """The game key, if the secret is revealed and opens its commitment."""
    c = _Checker(report, "secret")
    if log.secret is None:
        c.done("the secret is revealed when the game ends")
        return None
    secret = _hex(log.secret)
    if secret is None or hashlib.sha256(secret).hexdigest() != log.secret_commitment:
        c.fail("sha256(secret) is not the commitment published in GameOpened", log.secret_version, "secret")
        c.done()
        return None
    try:
        entropies = log.entropies()
    except (KeyError, ValueError) as exc:
        c.fail(f"seat entropy missing or not hex: {exc}", value="entropy")
        c.done()
        return None
    c.done()
    return fairness.game_key(secret, entropies)


def check_commitments(log: GameLog, report: Report) -> None:
    """Revealed orders open the published commitments (no secret needed)."""
    c = _Checker(report, "commitments")
    published: dict[tuple[int, int], tuple[str, Any, int]] = {}
    current_round: int | None = None
    for e in log.ruleset_events():
        data, v = e.get("data") or {}, int(e["version"])
        if e["type"] in SHUFFLE_TYPES:
            rnd = int(data.get("round", current_round or 0))
            k = 0 if e["type"] == "RoundDealt" else int(data.get("shuffle_no", 0))
            current_round = rnd if e["type"] == "RoundDealt" else current_round
            published[(rnd, k)] = (str(data.get("commitment")), data.get("order"), v)
        elif e["type"] == "RoundRevealed":
            rnd = int(data.get("round", current_round or 0))
            seen = set()
            for item in data.get("orders") or []:
                k = int(item.get("shuffle_no", -1))
                seen.add(k)
                salt = _hex(item.get("salt"))
                order = item.get("order")
                if salt is None or not isinstance(order, list):
                    c.fail(f"round {rnd} shuffle {k}: order or salt missing", v)
                    continue
                report.checked["orders opened"] = report.checked.get("orders opened", 0) + 1
                if chance.commit(order, salt) != item.get("commitment"):
                    c.fail(f"round {rnd} shuffle {k}: the revealed order and salt do not open the commitment", v)
                pub = published.get((rnd, k))
                if pub is None:
                    c.fail(f"round {rnd} shuffle {k}: revealed but never committed to", v)
                elif pub[0] != item.get("commitment"):
                    c.fail(f"round {rnd} shuffle {k}: commitment differs from the one published at "
                           f"version {pub[2]}", v)
                elif pub[1] is not None and list(pub[1]) != order:
                    c.fail(f"round {rnd} shuffle {k}: revealed order differs from the order dealt at "
                           f"version {pub[2]}", v)
            for (r, k), pub in published.items():
                if r == rnd and k not in seen:
                    c.fail(f"round {rnd} shuffle {k} (committed at version {pub[2]}) was never revealed", v)
    c.done()


def _replayable(c: _Checker, log: GameLog, key: bytes | None) -> Ruleset | None:
    """The log's ruleset when ``key`` and the ruleset are known; else ``None``, the check skipped."""
    ruleset = log.ruleset
    if key is None or ruleset is None:
        c.done("needs the revealed secret" if key is None else "unknown ruleset")
        return None
    return ruleset


def check_deals(log: GameLog, key: bytes | None, report: Report) -> None:
    """Every order, salt and commitment re-derived from the game key."""
    c = _Checker(report, "deals")
    ruleset = _replayable(c, log, key)
    if ruleset is None or key is None:
        return
    state: Any = None
    for e in log.ruleset_events():
        v = int(e["version"])
        try:
            state = ruleset.evolve(state, build_event(ruleset, e))
        except Exception as exc:  # a tampered event may not even build
            c.fail(f"event cannot be replayed: {type(exc).__name__}: {exc}", v)
            break
        if e["type"] not in SHUFFLE_TYPES:
            continue
        data = e["data"]
        rnd = int(data["round"])
        k = 0 if e["type"] == "RoundDealt" else int(data["shuffle_no"])
        label = chance.shuffle_label(rnd, k)
        report.checked["orders derived"] = report.checked.get("orders derived", 0) + 1
        order = list(data.get("order") or [])
        canonical = ruleset.full_pack(state) if k == 0 else sorted(order)
        if list(chance.shuffle(key, label, canonical)) != order:
            c.fail(f"round {rnd} shuffle {k}: the order is not the one derived from the game key "
                   f"(label {label!r})", v)
        salt = chance.salt(key, label)
        if data.get("salt") is not None and data["salt"] != salt.hex():
            c.fail(f"round {rnd} shuffle {k}: salt is not the derived one", v)
        if data.get("commitment") != chance.commit(order, salt):
            c.fail(f"round {rnd} shuffle {k}: commitment is not sha256(salt || order)", v)
    c.done()


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
    c = _Checker(report, "readjudication")
    ruleset = _replayable(c, log, key)
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


def _shape_problem(events: list[dict[str, Any]]) -> tuple[int, str] | None:
    """(position as a version, message) of the first event that is not shaped as exported."""
    types = {"version": int, "type": str, "schema_version": int, "prev_hash": str, "hash": str}
    for i, e in enumerate(events, start=1):
        if set(e) != EVENT_KEYS:
            return i, f"unknown or missing key(s) {sorted(set(e) ^ EVENT_KEYS)}"
        for k, t in types.items():
            if not isinstance(e[k], t) or isinstance(e[k], bool):
                return i, f"{k} is not a {t.__name__}"
        if not isinstance(e["data"], dict) or not isinstance(e["metadata"], dict):
            return i, "data and metadata must be objects"
    return None


def verify_export(export: Mapping[str, Any]) -> Report:
    """Every check of the module docstring on an export (see :mod:`service.audit.export`)."""
    report = Report()
    events = export.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        report.failures.append(Failure("file", "no list of events", value="events"))
        report.status["file"] = "failed"
        return report
    shape = _shape_problem(events)
    if shape is not None:
        # the checks below rely on the event shape; the chain still names the first bad event
        report.failures.append(Failure("file", shape[1], shape[0]))
        report.status["file"] = "failed"
        check_chain(events, report, export.get("head"))
        return report
    log = read_log(events)
    check_file(export, log, report)
    check_chain(events, report, export.get("head"))
    try:
        key = check_secret(log, report)
        check_commitments(log, report)
        check_deals(log, key, report)
        check_readjudication(log, key, report)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # a tampered export can break the shapes the checks rely on; the chain names where
        report.failures.append(Failure("file", f"malformed content: {type(exc).__name__}: {exc}", value="events"))
    claimed = export.get("verification")
    if claimed is not None and claimed != report.summary():
        # the server's own result travels with the export; it must be what anyone recomputes
        report.failures.append(Failure("file", "the server's verification result in the export differs from "
                                       f"this one (it claims ok={claimed.get('ok')!r})"
                                       if isinstance(claimed, Mapping) else "not an object", value="verification"))
        report.status["file"] = "failed"
    return report
