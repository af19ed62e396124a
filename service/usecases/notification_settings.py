"""A player's notification settings (``service.model.reach``): read, changed in part, and one
kind of e-mail turned off by an e-mail's List-Unsubscribe link (RFC 8058), without signing in.

What is stored is only what the player chose; the answers are the settings in force (the
service's defaults under that choice). Saving also stores the kinds of news each channel
follows under the new settings (``model.reach.follows``): the outboxes are written by those.
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from events import reach, reach_outbox
from service.adapters import account_stream
from service.model import reach as settings_model
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies


@dataclass(frozen=True, slots=True)
class Unsubscribing:
    """What an unsubscribe link would turn off: whose (their language, for the page), which
    kind of e-mail, and the change."""

    player_id: uuid.UUID
    kind: str
    locale: str | None
    change: Mapping[str, Any]


def _stored(deps: Dependencies, player: uuid.UUID) -> dict[str, Any] | None:
    found = reach.settings_of(deps.db, player)
    return None if found is None else dict(found.settings)


def current(deps: Dependencies, pid: str) -> dict[str, Any]:
    """The settings in force for the player."""
    return settings_model.effective(_stored(deps, uuid.UUID(pid))).json()


def _save(deps: Dependencies, player: uuid.UUID, patch: Any) -> dict[str, Any]:
    try:
        merged = settings_model.update(_stored(deps, player), patch)
    except settings_model.SettingsError as exc:
        raise Problem("validation", f"{exc.field}: {exc.message}", errors={exc.field: [exc.message]}) from None
    settings = settings_model.effective(merged)
    email_kinds, push_kinds = settings_model.follows(settings)
    reach.put_settings(deps.db, player, merged, email_kinds, push_kinds, deps.clock())
    return settings.json()


def change(deps: Dependencies, pid: str, patch: Any) -> dict[str, Any]:
    """Change any part of the settings (what the patch leaves out stays); the settings in force
    after. 422 naming the field that cannot be."""
    return _save(deps, uuid.UUID(pid), patch)


def unsubscribing(deps: Dependencies, raw_token: str) -> Unsubscribing:
    """What the List-Unsubscribe link with this token turns off; 404 for a token of no e-mail
    (or of one the player asked for, a verification or a sign-in code, which has no such link)."""
    gone = Problem("not-found", "this unsubscribe link is not valid (it may be mistyped, or older than the"
                                " e-mails the server keeps)")
    try:
        token = uuid.UUID(raw_token)
    except ValueError:
        raise gone from None
    target = reach_outbox.unsubscribe_target(deps.db, token)
    turned_off = None if target is None else settings_model.unsubscribe(target[1])
    if target is None or turned_off is None:
        raise gone
    player, kind = target
    try:
        locale = account_stream.load(deps.store, str(player))[0].locale
    except Problem:  # no such account any more: the page in English
        locale = None
    return Unsubscribing(player, kind, locale, turned_off)


def unsubscribe(deps: Dependencies, raw_token: str) -> Unsubscribing:
    """Turn off the kind of e-mail the link's e-mail was (idempotent: again, nothing changes)."""
    found = unsubscribing(deps, raw_token)
    _save(deps, found.player_id, found.change)
    return found
