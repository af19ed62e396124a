"""Errors ``decide`` may raise: only for reasons every player can see.

Each carries a stable ``code`` and an HTTP-like ``status`` so that the service can
map it to a problem+json response without a table of its own per ruleset. The codes
the rules name are used as they are written: ``no_window``, ``stale_window``,
``locked`` (409) and ``invalid`` (422).
"""
from __future__ import annotations


class RuleError(Exception):
    """A command refused on public information. ``status`` is 409 or 422."""

    status: int = 409
    code: str = "illegal"

    def __init__(self, detail: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class NotYourTurn(RuleError):
    code = "not_your_turn"


class WrongPhase(RuleError):
    code = "wrong_phase"


class NoWindow(RuleError):
    code = "no_window"


class StaleWindow(RuleError):
    code = "stale_window"


class Locked(RuleError):
    code = "locked"


class InvalidCommand(RuleError):
    """Malformed or impossible parameters (empty or foreign slot, bad set …): 422."""

    status = 422
    code = "invalid"


class InvalidOptions(ValueError):
    """House-rule options that cannot be used for this game (422 at creation)."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
