"""What a verification found: every failure with the version (or value) it names, and
each check's status. Shared by every check of :mod:`service.audit.verify`."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

CHECKS = ("file", "chain", "secret", "commitments", "deals", "readjudication", "lifecycle")


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


