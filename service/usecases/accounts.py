"""Players' accounts: registration, handles, the owner's own view, public profiles (events
in each player's own stream: ``service.model.account``, ``service.adapters.account_stream``),
and bearer-token authentication."""
from __future__ import annotations

import hashlib
import re
import secrets as pysecrets
import time
import uuid
from typing import Any

from events import game_index, players, reach
from events.errors import Duplicate, InvalidData
from events.store import NewEvent, apply_effect
from service.adapters import account_stream
from service.model.account import LOCALES, Account
from service.model.game import iso, metadata
from service.model.problems import Problem
from service.usecases import ratings, vacation
from service.usecases.dependencies import Dependencies

HANDLE = re.compile(r"[A-Za-z0-9_-]{3,24}")
# A worker remembers whose a token is, and records the token's use once in this long; but it
# asks the database on every request whether the token is still live (one read of an index),
# so a revocation holds on every worker, strictly, from the moment it is committed.
TOKEN_RECHECK_SECONDS = 60.0

def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256 (the plaintext is shown once and never kept)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def valid_handle(raw: Any) -> str:
    """A handle as given, trimmed: 3-24 letters, digits, ``_`` or ``-`` (422 otherwise)."""
    handle = raw.strip() if isinstance(raw, str) else ""
    if not HANDLE.fullmatch(handle):
        raise Problem("validation", "a handle is 3-24 letters, digits, '_' or '-'",
                      errors={"handle": ["3-24 characters: letters, digits, '_' or '-'"]})
    return handle


def _suggested(name: str) -> str:
    """A handle made of a name, for a registration that names none."""
    base = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_")[:16]
    return (base if len(base) >= 3 else "player") + "-" + pysecrets.token_hex(3)


def register_player(deps: Dependencies, name: str, handle: str | None = None, bot: bool = False) -> dict[str, Any]:
    """A new player with a token (shown once) and a handle (the one asked for, else one
    made of the name); ``bot``: a bot's account, shown as one (its games unrated by default)."""
    token = pysecrets.token_urlsafe(32)
    digest = token_digest(token)
    pid = uuid.uuid4()
    chosen = valid_handle(handle) if handle is not None else _suggested(name)
    for _ in range(5):
        at = deps.now()
        data: dict[str, Any] = {"name": name, "token_sha256": digest, "handle": chosen}
        if bot:
            data["bot"] = True
        ev = NewEvent("PlayerRegistered", data, metadata(at, None, str(pid)))
        try:
            deps.store.append(pid, 0, [ev], kind="player", notify=False,
                             effects=account_stream.effects(pid, ev.type, data, at))
        except Duplicate as exc:
            if exc.constraint != players.HANDLE_CONSTRAINT:
                raise
            if handle is not None:
                raise _taken(chosen) from None
            chosen = _suggested(name)
            continue
        except InvalidData as exc:
            raise Problem("validation", f"the name cannot be stored: {exc}") from exc
        return {"id": str(pid), "name": name, "handle": chosen, "token": token, "bot": bot}
    raise Problem("conflict", "no free handle was found; choose one")


def _taken(handle: str) -> Problem:
    return Problem("handle-taken", f"the handle {handle!r} is taken", errors={"handle": ["taken"]})


def me(deps: Dependencies, pid: str) -> dict[str, Any]:
    """The caller's own account (``/v1/me``)."""
    return described(deps, account_stream.load(deps.store, pid)[0])


def described(deps: Dependencies, acct: Account) -> dict[str, Any]:
    """An account as its owner sees it: profile, vacation balance, live tokens, and the e-mail
    address (its owner's eyes only: nothing else shows it) and whether this server sends e-mail."""
    email = reach.email_of(deps.db, uuid.UUID(acct.id))
    return {"id": acct.id, "name": acct.name, "handle": acct.handle, "created_at": acct.created_at,
            "vacation": vacation.balance(deps, acct), "tokens": len(acct.live_tokens()), "locale": acct.locale,
            "email": None if email is None else email.address,
            "email_verified": email is not None and email.verified_at is not None,
            "email_sending": bool(deps.config.smtp_url), "bot": acct.bot}


def change_handle(deps: Dependencies, pid: str, raw: Any) -> dict[str, Any]:
    """Change the caller's handle (422 if it is not one, 409 if another player has it)."""
    handle = valid_handle(raw)

    def decide(acct: Account) -> list[NewEvent]:
        if acct.handle == handle:
            return []
        return [NewEvent("HandleChanged", {"handle": handle}, metadata(deps.now(), None, pid))]

    try:
        return described(deps, account_stream.update(deps.store, pid, decide))
    except Duplicate as exc:
        if exc.constraint != players.HANDLE_CONSTRAINT:
            raise
        raise _taken(handle) from None


def choose_locale(deps: Dependencies, pid: str, raw: Any) -> dict[str, Any]:
    """The player's language (one of :data:`LOCALES`, any case; 422 otherwise), an event in
    their own stream like the handle."""
    wanted = raw.strip().lower() if isinstance(raw, str) else ""
    locale = next((x for x in LOCALES if x.lower() == wanted), None)
    if locale is None:
        raise Problem("validation", f"the locale must be one of {', '.join(LOCALES)}",
                      errors={"locale": [f"one of {', '.join(LOCALES)}"]})

    def decide(acct: Account) -> list[NewEvent]:
        if acct.locale == locale:
            return []
        return [NewEvent("LocaleChosen", {"locale": locale}, metadata(deps.now(), None, pid))]

    return described(deps, account_stream.update(deps.store, pid, decide))


def profile(deps: Dependencies, handle: str) -> dict[str, Any]:
    """A player's public profile: handle, name, vacation, and finished games played and won."""
    row = players.by_handle(deps.db, handle.strip()) if HANDLE.fullmatch(handle.strip()) else None
    if row is None:
        raise Problem("not-found", f"no player with the handle {handle!r}")
    record = game_index.record_of(deps.db, row.id)
    now = deps.clock()
    away = row.vacation_until is not None and row.vacation_from is not None and row.vacation_from <= now < row.vacation_until
    return {"id": str(row.id), "handle": row.handle, "name": row.name, "bot": row.bot,
            "ratings": ratings.of_player(deps, row.id),
            "on_vacation_until": iso(row.vacation_until) if away and row.vacation_until else None,
            "games": {"played": sum(p for p, _ in record.values()), "won": sum(w for _, w in record.values()),
                      "rulesets": {k: {"played": p, "won": w} for k, (p, w) in record.items()}}}


def rebuild_players(deps: Dependencies) -> int:
    """Rebuild the players' read models from their streams alone (as the owner: the service
    may not write a table); returns the number of players."""
    admin = deps.admin()
    players.clear(admin)
    ids = players.stream_ids(admin)
    for pid in ids:
        for r in deps.store.read(pid):
            for effect in account_stream.effects(pid, r.type, r.data, str((r.metadata or {}).get("at") or "")):
                apply_effect(admin, pid, effect)
    return len(ids)


def authenticate(deps: Dependencies, token: str, query: bool = True,
                 deferred: bool = False) -> tuple[str, str] | None:
    """(player id, name) of a live bearer token, or ``None``; ``query=False``: only a token
    this worker remembers (still checked live), never the look-up of an unknown one.
    ``deferred``: see :func:`authenticated`."""
    found = authenticated(deps, token, query, deferred)
    return None if found is None else (found[0], found[1])


def remembered(deps: Dependencies, token: str) -> str | None:
    """The player this worker remembers ``token`` to be, with no query: not proof that the
    token is still live (the rate limiter's key; :func:`authenticated` checks)."""
    hit = deps.tokens.get_(token_digest(token))
    return None if hit is None else str(hit[0])


def authenticated(deps: Dependencies, token: str, query: bool = True,
                  deferred: bool = False) -> tuple[str, str, str] | None:
    """(player id, name, token id) of a live bearer token, or ``None``. A token this worker
    remembers costs one read (is it still live?); once a minute, or for a token it does not
    remember, the look-up that also records the token's use.

    ``deferred`` (a request's authentication): the read of a remembered token rides ahead of
    the request's next statement instead of costing a round trip now (``players.require_live_token``);
    if the token is not live, that statement raises ``NotLive`` and nothing after the check runs."""
    digest = token_digest(token)
    hit = deps.tokens.get_(digest)
    now = time.monotonic()
    if hit is not None and now - hit[3] < TOKEN_RECHECK_SECONDS:
        if deferred:
            players.require_live_token(deps.db, digest)
            return hit[0], hit[1], hit[2]
        if players.token_live(deps.db, digest):
            return hit[0], hit[1], hit[2]
        deps.tokens.drop(digest)
        return None
    if not query:
        return None
    used = players.use_token(deps.db, digest, deps.clock())
    if used is None:
        deps.tokens.drop(digest)
        return None
    row, token_id = used
    found = (str(row.id), row.name, str(token_id))
    deps.tokens.put(digest, (*found, now))
    return found


def forget_token(deps: Dependencies, digest: str) -> None:
    """This worker forgets a revoked token; the others refuse it at its next use all the same
    (each use reads whether it is live) and forget it then."""
    deps.tokens.drop(digest)
