"""Errors of the event store. Callers never see a psycopg exception."""
from __future__ import annotations


class StoreError(Exception):
    """The database refused or failed an operation."""


class StoreUnavailable(StoreError):
    """The database cannot be reached."""


class NotLive(StoreError):
    """A request's guard refused it (its token or session is not live any more): nothing the
    request sent after the guard ran (``Database.guard``)."""


class InvalidData(StoreError):
    """The data cannot be stored (for example a NUL character in a string)."""


class Duplicate(StoreError):
    """A unique constraint of a read model refused the write (say a handle already taken);
    the append it was part of did not happen."""

    def __init__(self, constraint: str, message: str) -> None:
        super().__init__(message)
        self.constraint = constraint


class ConcurrencyError(StoreError):
    """The stream is not at the expected version; nothing was written."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, stream is at {actual}")
        self.expected = expected
        self.actual = actual


class RatingsMoved(ConcurrencyError):
    """A player's rating changed between the read a game's new ratings were computed from and
    the append that ends the game (another game of theirs ended first): nothing was written;
    decide again (sql/030_ratings.sql)."""

    def __init__(self, message: str) -> None:
        StoreError.__init__(self, message)
        self.expected = self.actual = -1


class IdempotencyConflict(StoreError):
    """The command id was used before for a different request."""

    def __init__(self, command_id: str) -> None:
        super().__init__(f"command id {command_id!r} was already used for another request")
        self.command_id = command_id


class AppendOnly(StoreError):
    """An UPDATE, DELETE or TRUNCATE of the log was refused."""
