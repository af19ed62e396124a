"""Reading a game's events as one seat (or a spectator) may see them, page by page."""
from __future__ import annotations

import uuid
from typing import Any

from domain import rules
from service.usecases.dependencies import Api
from service.model.views import present_record
from service.model.problems import Problem


def events_page(api: Api, gid: uuid.UUID, seat: int | None, after: int, limit: int,
                ruleset_name: str) -> tuple[dict[str, Any], bool]:
    """Events after ``after`` as ``seat`` may see them, and whether any event was read."""
    got = api.store.page(gid, after, limit)
    if got is None:
        raise Problem("not-found", f"no game {gid}")
    version, head, records = got
    if not records:
        return {"events": [], "next_after": after, "version": version,
                "chain_head": head.hex(), "more": False}, False
    rs = rules.get(ruleset_name)
    shown = [p for p in (present_record(rs, r, seat) for r in records) if p is not None]
    last = records[-1]
    return {"events": shown, "next_after": last.version, "version": version,
            "chain_head": last.hash.hex(), "more": last.version < version}, True
