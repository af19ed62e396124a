"""Problems (RFC 9457 ``application/problem+json``) as exceptions."""
from __future__ import annotations

from typing import Any


class FacedownError(Exception):
    """Anything the client could not do."""


class ProblemError(FacedownError):
    """The server refused the request: ``status``, ``type`` (``/problems/<slug>``), ``detail``,
    and the document's other members in ``body`` (``errors``, ``legal_actions``, ``version``...)."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.type: str = str(body.get("type", "about:blank"))
        self.title: str = str(body.get("title", ""))
        self.detail: str = str(body.get("detail", ""))
        self.body = body
        super().__init__(f"{status} {self.slug}: {self.detail}")

    @property
    def slug(self) -> str:
        """The last part of ``type``, such as ``not-your-turn``."""
        return self.type.rstrip("/").rsplit("/", 1)[-1]

    @property
    def legal_actions(self) -> list[dict[str, Any]]:
        """For a 409 to a command: the caller's current legal actions."""
        return list(self.body.get("legal_actions") or [])
