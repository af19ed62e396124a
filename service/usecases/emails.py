"""A player's e-mail address: given (and a link to verify it e-mailed), verified, withdrawn;
and signing in by e-mail (docs/reaching-players.md).

The address is personal data, shown to its owner only: it is kept beside the log
(``events.reach``), never in an event, a game, a profile or a list. A verification token is
``secrets.token_urlsafe`` (256 bits), single use, valid 24 hours; only its SHA-256 is kept
(the token itself travels in the e-mail's row until the e-mail is settled).

Signing in by e-mail answers the same, in what it says and as far as reasonable in how long it
takes, whether or not the address is an account's: the answer waits until
:data:`SIGNIN_ANSWER_SECONDS` have passed since the request began, whatever work it did.
"""
from __future__ import annotations

import hashlib
import secrets as pysecrets
import time
import uuid
from datetime import timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email

from events import reach
from events.reach_outbox import MailItem
from service.model import reach_messages
from service.model.problems import Problem
from service.usecases import sessions
from service.usecases.dependencies import Dependencies

TOKEN_SECONDS = 86400
MAX_ADDRESS = 254  # RFC 5321's longest path, less its angle brackets
MAX_TOKEN = 200
# the sign-in by e-mail answers no sooner than this: issuing a code and writing its e-mail
# takes a few milliseconds more than finding no account, and that difference must not show
SIGNIN_ANSWER_SECONDS = 0.25
#: why a verification token verifies nothing, in words that name no account and no address
REFUSED = {
    "unknown": "this verification link is not valid: it may be mistyped, or older than a day and forgotten",
    "used": "this verification link has been used already",
    "expired": "this verification link has expired (links last 24 hours); ask for a new one",
    "changed": "this verification link is for an address that has since been replaced or withdrawn",
}


def sending(deps: Dependencies) -> bool:
    """Whether this server sends e-mail at all (an SMTP server is configured)."""
    return bool(deps.config.smtp_url)


def _unavailable() -> Problem:
    return Problem("email-unavailable", "this server sends no e-mail (it has no SMTP server configured)")


def token_digest(token: str) -> str:
    """What is kept of a verification token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def valid_address(raw: Any) -> str:
    """An address as given, checked for its form (not for its mailbox: the e-mail that verifies
    it does that) and normalised; all ASCII, the domain in IDNA, for SMTP servers without
    SMTPUTF8. 422 naming ``email`` otherwise."""
    text = raw.strip() if isinstance(raw, str) else ""
    try:
        if not text or len(text) > MAX_ADDRESS:
            raise EmailNotValidError(f"an address is 1 to {MAX_ADDRESS} characters")
        found = validate_email(text, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError as exc:
        raise Problem("validation", f"email: {exc}", errors={"email": [str(exc)]}) from None
    address = found.ascii_email or found.normalized
    if len(address) > MAX_ADDRESS:
        raise Problem("validation", "email: the address is too long", errors={"email": ["too long"]})
    return address


def set_email(deps: Dependencies, pid: str, raw: Any) -> dict[str, Any]:
    """Give the player a new address, not verified yet, and e-mail it a link that verifies it
    (one transaction: the address, the token's digest and the e-mail's row; the link of an
    address given before, if not sent yet, is not sent). 409 when this server sends no e-mail,
    422 for an address that is not one."""
    if not sending(deps):
        raise _unavailable()
    address = valid_address(raw)
    token = pysecrets.token_urlsafe(32)
    now = deps.clock()
    expires = now + timedelta(seconds=TOKEN_SECONDS)
    player = uuid.UUID(pid)
    mail = MailItem(player, "verify_email", dict(reach_messages.verify_email(address, expires).args),
                    to_address=address, secret=token)
    reach.change_email(deps.db, player, address, token_digest(token), expires, now, mail)
    return {"email": address, "email_verified": False}


def verify(deps: Dependencies, raw: Any) -> dict[str, Any]:
    """Use a verification token (no sign-in needed: the link is the proof); 400 ``invalid-token``
    saying why it verifies nothing."""
    token = raw.strip() if isinstance(raw, str) else ""
    if not token or len(token) > MAX_TOKEN:
        raise Problem("invalid-token", REFUSED["unknown"])
    done = reach.verify_email(deps.db, token_digest(token), deps.clock())
    if done.status != "verified":
        raise Problem("invalid-token", REFUSED.get(done.status, REFUSED["unknown"]))
    return {"email": done.address, "email_verified": True}


def forget(deps: Dependencies, pid: str) -> None:
    """Withdraw the player's address: forgotten with its tokens, and no e-mail goes to it."""
    reach.forget_email(deps.db, uuid.UUID(pid), deps.clock())


def sign_in_by_email(deps: Dependencies, raw: Any) -> dict[str, Any]:
    """A one-time sign-in code e-mailed to a verified address; the same answer, after the same
    time, whatever the address (no account can be found out through it). 409 for every address
    when this server sends no e-mail; 422 for what is not an address at all."""
    began = time.monotonic()
    if not sending(deps):
        raise _unavailable()
    address = valid_address(raw)
    owner = reach.email_owner(deps.db, address)
    if owner is not None:
        try:
            sessions.email_code(deps, str(owner))
        except Problem:  # the account refused it (a race): the answer stays the same
            pass
    left = SIGNIN_ANSWER_SECONDS - (time.monotonic() - began)
    if left > 0:
        time.sleep(left)
    return {"expires_in": sessions.CODE_SECONDS}
