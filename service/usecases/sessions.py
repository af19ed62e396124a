"""Browser sessions: a token kept in an HttpOnly cookie, and one-time sign-in codes.

A session *is* a bearer token of the player (``TokenIssued``, labelled ``web session``), so
it authenticates, is listed and is revoked exactly as any other token; the browser never
sees it (the cookie is HttpOnly). A session is opened by showing a token the player holds,
by registering, or by a one-time code: a signed-in session asks for one
(``SignInCodeIssued``, only its SHA-256 stored), or a verified e-mail address asks for one
by mail (:func:`email_code`, from ``service.usecases.emails``), and another device exchanges it once,
before it expires, for a session of its own (``SignInCodeUsed`` and ``TokenIssued`` in one
append on the player's stream, whose version check makes the code single-use even when two
devices race). Signing out revokes the session's token.

The CSRF token of a session is derived from its token (an HMAC keyed by it), so it needs
no storage, and a page that can read it (a non-HttpOnly cookie) still cannot learn the
session's token from it.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets as pysecrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from events import players as player_rows
from events import reach_outbox
from events.store import NewEvent
from service.adapters import account_stream
from service.model import reach_messages
from service.model.account import Account
from service.model.game import iso, metadata, moment
from service.model.problems import Problem
from service.usecases import accounts, tokens
from service.usecases.dependencies import Dependencies

SESSION_LABEL = "web session"
CODE_SECONDS = 600
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed from a phone
CODE_LENGTH = 10  # 50 bits: with the registration's rate limit, unguessable in its ten minutes
MAX_EMAILED_CODES = 3  # live codes at once, by e-mail: at most three e-mails in a code's ten minutes
_NOT_CODE = re.compile(r"[\s-]+")


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session (the page echoes it in ``X-CSRF-Token``)."""
    return hmac.new(session_token.encode("utf-8", "surrogatepass"), b"facedown csrf", hashlib.sha256).hexdigest()


def csrf_matches(session_token: str, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(csrf_token(session_token), sent)


def _session_for(deps: Dependencies, pid: str, extra: list[NewEvent] | None = None,
                 check: Any = None) -> tuple[str, Account]:
    """A new session token for the player (with ``extra`` events first, in the same append),
    revoking the oldest web session when the player holds as many tokens as allowed."""
    token = pysecrets.token_urlsafe(32)
    token_id = str(uuid.uuid4())
    at = deps.now()
    gone: list[str] = []

    def decide(acct: Account) -> list[NewEvent]:
        if check is not None:
            check(acct)
        out = list(extra or [])
        live = acct.live_tokens()
        if len(live) >= tokens.MAX_TOKENS:
            oldest = next((t for t in live if t.label == SESSION_LABEL), None)
            if oldest is None:
                raise Problem("too-many-tokens", f"a player may hold {tokens.MAX_TOKENS} tokens; revoke one first")
            gone.append(oldest.digest)
            out.append(NewEvent("TokenRevoked", {"token_id": oldest.id}, metadata(at, None, pid)))
        out.append(NewEvent("TokenIssued", {"token_id": token_id, "token_sha256": accounts.token_digest(token),
                                            "label": SESSION_LABEL}, metadata(at, None, pid)))
        return out

    acct = account_stream.update(deps.store, pid, decide)
    for digest in gone:
        accounts.forget_token(deps, digest)
    return token, acct


def _opened(token: str, acct: Account, shown: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"player": {"id": acct.id, "name": acct.name, "handle": acct.handle},
                           "csrf_token": csrf_token(token), "session": token}
    if shown is not None:
        out["token"] = shown
    return out


def sign_in_with_token(deps: Dependencies, token: str) -> dict[str, Any]:
    """A session for the holder of a live token (401 if it is not one)."""
    found = accounts.authenticate(deps, token)
    if found is None:
        raise Problem("unauthorized", "that token is not valid")
    session, acct = _session_for(deps, found[0])
    return _opened(session, acct)


def register(deps: Dependencies, name: str, handle: str | None) -> dict[str, Any]:
    """A new player and a session; the registration's own token is in this answer, once."""
    made = accounts.register_player(deps, name, handle)
    session, acct = _session_for(deps, made["id"])
    return _opened(session, acct, shown=made["token"])


def _issued(deps: Dependencies, pid: str, check: Any = None) -> tuple[str, datetime]:
    """A new one-time code of the player (its SHA-256 kept in their stream), as shown to them
    (``XXXXX-XXXXX``), and when it expires; ``check(acct)`` may refuse first."""
    code = "".join(pysecrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    now = deps.clock()
    expires = now + timedelta(seconds=CODE_SECONDS)
    data = {"code_id": str(uuid.uuid4()), "code_sha256": _code_digest(code), "expires_at": iso(expires)}

    def decide(acct: Account) -> list[NewEvent]:
        if check is not None:
            check(acct)
        return [NewEvent("SignInCodeIssued", data, metadata(iso(now), None, pid))]

    account_stream.update(deps.store, pid, decide)
    return f"{code[:5]}-{code[5:]}", expires


def issue_code(deps: Dependencies, pid: str) -> dict[str, Any]:
    """A one-time code (shown once) that opens a session of this player on another device."""
    shown, expires = _issued(deps, pid)
    return {"code": shown, "expires_at": iso(expires), "expires_in": CODE_SECONDS}


class _Enough(Exception):
    """The player has as many live codes as e-mail may send them."""


def email_code(deps: Dependencies, pid: str) -> bool:
    """A one-time code for the player whose verified address asked for it, and its e-mail (a
    mail row whose secret is the code, to the address verified when it is sent), written after
    the code. Nothing when the player already holds :data:`MAX_EMAILED_CODES` live codes (so
    nobody can flood an inbox through the form). Whether a code was issued."""
    now = deps.clock()

    def check(acct: Account) -> None:
        if sum(1 for c in acct.codes if not c.used and moment(c.expires_at) > now) >= MAX_EMAILED_CODES:
            raise _Enough

    try:
        shown, expires = _issued(deps, pid, check)
    except _Enough:
        return False
    reach_outbox.enqueue_mail(deps.db, [reach_outbox.MailItem(
        uuid.UUID(pid), "signin_code", dict(reach_messages.signin_code(expires).args), secret=shown)])
    return True


def _code_digest(code: str) -> str:
    return hashlib.sha256(("facedown sign-in code " + code).encode()).hexdigest()


def normalized(raw: str) -> str:
    """A code as typed (any case, spaces or dashes anywhere) in its canonical form."""
    return _NOT_CODE.sub("", raw).upper()


def sign_in_with_code(deps: Dependencies, raw: str) -> dict[str, Any]:
    """A session for the player who issued this code, if it is live (used at most once)."""
    refused = Problem("invalid-code", "that code is not valid: it may be mistyped, used or expired; "
                                      "ask your signed-in device for a new one")
    code = normalized(raw)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise refused
    owner = player_rows.code_owner(deps.db, _code_digest(code))
    if owner is None:
        raise refused
    pid, code_id = str(owner[0]), str(owner[1])
    now = deps.clock()

    def check(acct: Account) -> None:
        found = next((c for c in acct.codes if c.id == code_id), None)
        if found is None or found.used or moment(found.expires_at) <= now:
            raise refused

    used = NewEvent("SignInCodeUsed", {"code_id": code_id}, metadata(iso(now), None, pid))
    session, acct = _session_for(deps, pid, [used], check)
    return _opened(session, acct)


def describe(deps: Dependencies, pid: str, session: str) -> dict[str, Any]:
    """The player of a live session, with the session's CSRF token."""
    acct, _ = account_stream.load(deps.store, pid)
    return _opened(session, acct)


def sign_out(deps: Dependencies, session: str) -> None:
    """Revoke the session's token (nothing to do if it is no longer live)."""
    found = accounts.authenticated(deps, session)
    if found is not None:
        try:
            tokens.revoke(deps, found[0], found[2])
        except Problem as exc:
            if exc.slug != "not-found":  # revoked meanwhile by another sign-out: the same end
                raise
