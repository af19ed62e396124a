"""The audit: exports, offline verification, timelines and point-in-time views.

``register(app)`` mounts ``GET /v1/games/{id}/audit`` and ``.../audit/view``. The
rest of the package is pure (standard library + ``domain`` + ``events.canonical`` + the pure
service modules ``service.model.game``, ``service.model.clock``, ``service.model.seating`` +
``service.model.fairness``) so that ``facedown audit verify`` needs no server or database.
"""
from __future__ import annotations

from typing import Any


def register(app: Any) -> None:
    from service.http.routes.audit import register as _register

    _register(app)
