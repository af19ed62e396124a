"""What a verification found: every failure with the version (or value) it names, and
each check's status. Shared by every check of :mod:`service.audit.verify`."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

CHECKS = ("file", "chain", "secret", "commitments", "deals", "readjudication", "lifecycle")
#: what each check establishes, in the words of the verdict
WHAT = {
    "file": "the file against the chained events",
    "chain": "the hash chain",
    "secret": "the secret against its commitment",
    "commitments": "the revealed orders against their commitments",
    "deals": "the deals",
    "readjudication": "the rulings",
    "lifecycle": "the service's own moves",
}


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


class Checker:
    """One check writing into a report: its failures, then its status."""

    def __init__(self, report: Report, name: str) -> None:
        self.report, self.name, self.failed = report, name, False

    def fail(self, message: str, version: int | None = None, value: str | None = None) -> None:
        self.failed = True
        self.report.failures.append(Failure(self.name, message, version, value))

    def done(self, skipped: str | None = None) -> None:
        self.report.status[self.name] = "failed" if self.failed else (f"skipped: {skipped}" if skipped else "ok")




def verdict(report: Report, complete: bool, upto: object) -> list[str]:
    """The closing lines of a verification: its result, and unless everything was checked,
    what was and what could not be yet (an unfinished game keeps its secret and its current
    round, so its deals and rulings wait for its end)."""
    first = report.first()
    if first is not None:
        return [f"RESULT: FAILED, first bad {first}"] + [f"  - {f}" for f in report.failures[1:20] if f != first]
    skipped: dict[str, list[str]] = {}  # why -> what it kept from being checked
    for check, status in report.status.items():
        if status.startswith("skipped"):
            skipped.setdefault(status.removeprefix("skipped").lstrip(": ") or "skipped", []).append(WHAT[check])
    if complete and not skipped:
        return ["RESULT: OK, the log, the commitments, the deals and every ruling check out"]
    missing = [f"{' and '.join(what)} ({why})" for why, what in skipped.items()]
    if not complete:
        missing.append(f"the round being played (its events, after version {upto}, are exported when it ends)")
    return [f"RESULT: OK {'so far, the game is not over' if not complete else 'for what could be checked'}: "
            "what was checked checks out, and some checks are still to be made",
            "  checked: " + "; ".join(WHAT[c] for c, status in report.status.items() if status == "ok"),
            "  not checked" + (" yet: " if not complete else ": ") + "; ".join(missing)]
