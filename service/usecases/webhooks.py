"""Registering and removing webhooks: events in the player's own stream."""
from __future__ import annotations

import uuid
from typing import Any

from events import webhooks
from events.errors import ConcurrencyError
from events.store import NewEvent
from service.adapters.outbound import TargetRefused, check
from service.adapters.webhooks import signing
from service.model.game import iso, metadata
from service.model.notifications import KINDS
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies

MAX_PER_PLAYER = 10
MAX_TRIES = 5


def webhook_out(w: webhooks.Webhook) -> dict[str, Any]:
    return {"id": str(w.id), "url": w.url, "events": w.events, "enabled": w.enabled, "failures": w.failures,
            "disabled_reason": w.disabled_reason, "created_at": iso(w.created_at)}


def _append(deps: Dependencies, player: str, event: NewEvent, effect: dict[str, Any]) -> None:
    pid = uuid.UUID(player)
    for _ in range(MAX_TRIES):
        head = deps.store.head(pid)
        try:
            deps.store.append(pid, head[0] if head else 0, [event], kind="player", notify=False, effects=[effect])
            return
        except ConcurrencyError:
            continue
    raise Problem("conflict", "your account changed too often; try again")


def add(deps: Dependencies, player: str, url: str, events: list[str], allow_private: bool) -> dict[str, Any]:
    unknown = sorted(set(events) - set(KINDS))
    if unknown:
        raise Problem("validation", f"unknown notification kinds {unknown}",
                      errors={"events": [f"each must be one of {list(KINDS)}"]})
    try:
        check(url, allow_private)
    except TargetRefused as exc:
        raise Problem("validation", f"the URL cannot receive webhooks: {exc}", errors={"url": [str(exc)]}) from None
    pid = uuid.UUID(player)
    if len(webhooks.of_player(deps.db, pid)) >= MAX_PER_PLAYER:
        raise Problem("conflict", f"a player may have at most {MAX_PER_PLAYER} webhooks; remove one first")
    wid, secret = uuid.uuid4(), signing.new_secret()
    kinds = sorted(set(events), key=KINDS.index)
    event = NewEvent("WebhookAdded", {"webhook_id": str(wid), "url": url, "events": kinds},
                     metadata(deps.now(), None, player))
    _append(deps, player, event, webhooks.add_effect(wid, pid, url, kinds, secret))
    found = webhooks.get(deps.db, pid, wid)
    assert found is not None
    return webhook_out(found) | {"secret": signing.secret_text(secret)}


def remove(deps: Dependencies, player: str, webhook_id: uuid.UUID) -> None:
    if webhooks.get(deps.db, uuid.UUID(player), webhook_id) is None:
        raise Problem("not-found", f"you have no webhook {webhook_id}")
    event = NewEvent("WebhookRemoved", {"webhook_id": str(webhook_id)}, metadata(deps.now(), None, player))
    _append(deps, player, event, webhooks.remove_effect(webhook_id))


def listing(deps: Dependencies, player: str) -> list[dict[str, Any]]:
    return [webhook_out(w) for w in webhooks.of_player(deps.db, uuid.UUID(player))]


def deliveries(deps: Dependencies, player: str, webhook_id: uuid.UUID, limit: int) -> list[dict[str, Any]]:
    if webhooks.get(deps.db, uuid.UUID(player), webhook_id) is None:
        raise Problem("not-found", f"you have no webhook {webhook_id}")
    out = []
    for d in webhooks.deliveries(deps.db, webhook_id, limit):
        out.append({"id": str(d["delivery_id"]), "webhook_id_header": f"msg_{d['delivery_id'].hex}",
                    "seq": d["seq"], "kind": d["kind"], "status": d["status"], "attempts": d["attempts"],
                    "last_status": d["last_status"], "last_error": d["last_error"],
                    "created_at": iso(d["created_at"]),
                    "finished_at": iso(d["finished_at"]) if d["finished_at"] else None,
                    "next_attempt_at": iso(d["next_attempt_at"]) if d["status"] == "pending" else None,
                    "attempt_log": d["attempt_log"]})
    return out
