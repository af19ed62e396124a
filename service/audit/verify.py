"""Verify an exported game with nothing but the export: no server, no database.

Checks, in this order (see ``docs/fairness.md``):

* **file**: the export's top-level copies (secret, entropy, head, the time/actor
  shown beside each event) agree with the chained events;
* **chain**: versions 1..n, each ``prev_hash`` is the previous ``hash``, each hash
  recomputes from the canonical body (:mod:`events.canonical`);
* **secret**: ``sha256(secret)`` is the commitment published in ``GameOpened``;
* **commitments**: every order revealed in ``RoundRevealed`` opens the commitment
  published at its deal/reshuffle, and every finished round revealed them all;
* **deals**: with the game key (secret + seat entropy, :func:`service.model.fairness.game_key`)
  every dealt and reshuffled order, salt and commitment is re-derived;
* **readjudication**: the ruleset's ``start`` and every stored command replayed
  through ``decide`` with the game key produce exactly the stored events;
* **lifecycle**: the service's own events replayed (``service.audit.service_requests``): every
  automatic move was due on the game's clock (its time control, its recorded vacations),
  every seat's command came from its player or its bot, and every resignation, vote,
  invitation, departure and cancellation is what the service decides on that request.

Every failure names a version (or a value such as ``secret`` or ``entropy[1]``);
failures are sorted so that the first one is the earliest version.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from domain import chance
from events.canonical import GENESIS, chain_hash, event_body
from service.model import fairness
from service.audit.service_requests import check_lifecycle
from service.audit.log import SHUFFLE_TYPES, GameLog, build_event, read_log
from service.audit.replay import check_readjudication, replayable
from service.audit.report import CHECKS, Checker, Failure, Report

__all__ = ["CHECKS", "Failure", "Report", "check_readjudication", "verify_export"]

EVENT_KEYS = frozenset({"version", "type", "schema_version", "data", "metadata", "time", "actor",
                        "prev_hash", "hash"})
EXPORT_KEYS = frozenset({"format", "game_id", "ruleset", "status", "complete", "upto_version", "head",
                         "secret_commitment", "secret", "entropy", "events", "verification"})
def _hex(value: Any) -> bytes | None:
    try:
        return bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None


def check_chain(events: list[dict[str, Any]], report: Report, head: Any = None) -> None:
    c = Checker(report, "chain")
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
    c = Checker(report, "file")
    # a duplicate board's table carries its board (docs/fairness.md), no other game does
    expected = EXPORT_KEYS | ({"board"} if log.board_commitment is not None else set())
    for key in sorted((set(export) | {"verification"}) ^ expected):
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
    if not isinstance(entropy, list) or len(entropy) != log.players:
        c.fail("not one value per seat", value="entropy")
    else:
        for seat, value in enumerate(entropy):
            if log.entropy.get(seat) != value:
                c.fail("differs from the SeatTaken event", value=f"entropy[{seat}]")
    if export.get("ruleset") != log.ruleset_name:
        c.fail("differs from the GameOpened event", value="ruleset")
    c.done()


def check_board(log: GameLog, board: Any, c: Checker) -> bytes | None:
    """A duplicate board's table: the key from the board's seed, if the seed is revealed and
    opens the commitment the game was opened with (the seat's entropy does not enter it)."""
    if not isinstance(board, Mapping) or board.get("commitment") != log.board_commitment:
        c.fail("the export's board is not the one GameOpened commits to", value="board")
        return None
    seed = _hex(board.get("seed"))
    if board.get("seed") is None:
        return None  # revealed when the board's round is over
    if seed is None or hashlib.sha256(seed).hexdigest() != log.board_commitment:
        c.fail("sha256(board seed) is not the board's commitment in GameOpened", value="board.seed")
        return None
    return fairness.board_key(seed)


def check_secret(log: GameLog, report: Report, board: Any = None) -> bytes | None:
    """The game key, if the secret is revealed and opens its commitment (a duplicate board's
    table: the key of its board's seed, :func:`check_board`)."""
    c = Checker(report, "secret")
    if log.secret is None:
        c.done("the secret is revealed when the game ends")
        return None
    secret = _hex(log.secret)
    if secret is None or hashlib.sha256(secret).hexdigest() != log.secret_commitment:
        c.fail("sha256(secret) is not the commitment published in GameOpened", log.secret_version, "secret")
        c.done()
        return None
    if not log.ruleset_events():  # a game that ended before its deal has no key to derive
        c.done()
        return None
    try:
        entropies = log.entropies()
    except (KeyError, ValueError) as exc:
        c.fail(f"seat entropy missing or not hex: {exc}", value="entropy")
        c.done()
        return None
    key = check_board(log, board, c) if log.board_commitment is not None else fairness.game_key(secret, entropies)
    c.done()
    return key


def check_commitments(log: GameLog, report: Report) -> None:
    """Revealed orders open the published commitments (no secret needed)."""
    c = Checker(report, "commitments")
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


def check_deals(log: GameLog, key: bytes | None, report: Report) -> None:
    """Every order, salt and commitment re-derived from the game key."""
    c = Checker(report, "deals")
    ruleset = replayable(c, log, key)
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
        key = check_secret(log, report, export.get("board"))
        check_commitments(log, report)
        check_deals(log, key, report)
        check_readjudication(log, key, report)
        check_lifecycle(log, report)
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
