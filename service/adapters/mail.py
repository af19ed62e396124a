"""E-mail over SMTP, with the standard library's ``smtplib`` and ``email``.

Configured by ``FACEDOWN_SMTP_URL`` (unset: nothing is e-mailed) and ``FACEDOWN_MAIL_FROM``::

    smtp://host[:port]                    plain SMTP (port 25), e.g. a relay on the same host
    smtp://user:password@host:587?starttls=1
                                          STARTTLS (RFC 3207) before anything else, then AUTH;
                                          the port defaults to 587 with it
    smtps://user:password@host[:port]     TLS from the first octet (RFC 8314, port 465)

A user name or password with reserved characters is percent-encoded (``%40`` for ``@``).
``?timeout=SECONDS`` (default 10) bounds each step. The server's certificate is verified.

A message (:class:`Mail`) arrives rendered (subject, text, HTML): this module only sends it,
as ``multipart/alternative`` with a ``Message-ID`` made from the caller's stable id (the
outbox row's: a message sent again after a crash keeps its Message-ID, which mail clients
use to show it once), ``Date``, ``List-Unsubscribe`` and ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click`` (RFC 8058), ``Content-Language`` when given, and
``Auto-Submitted: auto-generated`` (RFC 3834: no vacation replies). Every failure is
classified (:class:`Sent`): ``retry`` when it is the server's or the connection's (a 4xx
answer, a refused connection, TLS, authentication, the sender refused) and the same message
may go later, ``failed`` when the message itself is refused (a 5xx answer to its recipient
or its content).
"""
from __future__ import annotations

import smtplib
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

Security = Literal["plain", "starttls", "tls"]
Status = Literal["sent", "retry", "failed"]
_PORTS = {"plain": 25, "starttls": 587, "tls": 465}
_YES = ("1", "true", "yes", "on")


@dataclass(frozen=True, slots=True)
class SmtpConfig:
    """Where and how to hand e-mail over (parsed from ``FACEDOWN_SMTP_URL``)."""

    host: str
    port: int
    security: Security = "plain"
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 10.0

    @staticmethod
    def parse(url: str) -> SmtpConfig:
        """The configuration a URL gives; ``ValueError`` saying what is wrong (never the password)."""
        parts = urlsplit(url.strip())
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        unknown = set(query) - {"starttls", "timeout"}
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError("FACEDOWN_SMTP_URL must start with smtp:// or smtps://")
        if not parts.hostname:
            raise ValueError("FACEDOWN_SMTP_URL has no host")
        if unknown:
            raise ValueError(f"FACEDOWN_SMTP_URL: unknown parameters {sorted(unknown)} (starttls, timeout)")
        starttls = query.get("starttls", "0").lower() in _YES
        if parts.scheme == "smtps" and starttls:
            raise ValueError("FACEDOWN_SMTP_URL: smtps:// is TLS from the start; starttls=1 is for smtp://")
        security: Security = "tls" if parts.scheme == "smtps" else "starttls" if starttls else "plain"
        try:
            port = parts.port or _PORTS[security]
            timeout = float(query.get("timeout", "10"))
        except ValueError:
            raise ValueError("FACEDOWN_SMTP_URL: the port or the timeout is not a number") from None
        if timeout <= 0:
            raise ValueError("FACEDOWN_SMTP_URL: the timeout must be positive")
        return SmtpConfig(parts.hostname, port, security, unquote(parts.username) if parts.username else None,
                          unquote(parts.password) if parts.password is not None else None, timeout)


@dataclass(frozen=True, slots=True)
class Mail:
    """A rendered message. ``message_id``: a stable id of it (the outbox row's), the same on
    every attempt; ``unsubscribe_url``: the https link a POST to which turns this kind off."""

    to: str
    subject: str
    text: str
    message_id: str
    html: str | None = None
    unsubscribe_url: str | None = None
    language: str | None = None
    date: datetime | None = None


@dataclass(frozen=True, slots=True)
class Sent:
    """What became of one message: ``sent``; ``retry`` (the same may go later) or ``failed``
    (it never will), with the server's reply code when there was one."""

    status: Status
    message_id: str
    code: int | None = None
    detail: str | None = None


def _reply(code: int, message: bytes | str) -> str:
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return f"{code} {text}"[:300]


def _by_code(code: int) -> Status:
    """A reply to the message itself: 5xx refuses it for good (but 421, the server closing)."""
    return "failed" if 500 <= code < 600 else "retry"


class Mailer:
    """Sends :class:`Mail` from ``sender`` (``FACEDOWN_MAIL_FROM``, ``Name <address>`` or an
    address) through the configured server. ``context``: the TLS context (default: the
    system's trusted certificates, host names checked)."""

    def __init__(self, config: SmtpConfig, sender: str, context: ssl.SSLContext | None = None) -> None:
        name, address = parseaddr(sender)
        if "@" not in address or address.startswith("@") or address.endswith("@"):
            raise ValueError(f"FACEDOWN_MAIL_FROM is not an address: {sender!r}")
        self.config = config
        self.sender = sender
        self.address = address
        self.domain = address.rsplit("@", 1)[1]
        self.context = context or ssl.create_default_context()

    @staticmethod
    def from_env(environ: Mapping[str, str], context: ssl.SSLContext | None = None) -> Mailer | None:
        """The mailer of ``FACEDOWN_SMTP_URL`` and ``FACEDOWN_MAIL_FROM``, or None when no URL
        is set (then nothing is e-mailed). ``ValueError`` when they are not usable."""
        url = environ.get("FACEDOWN_SMTP_URL", "").strip()
        if not url:
            return None
        sender = environ.get("FACEDOWN_MAIL_FROM", "").strip()
        if not sender:
            raise ValueError("FACEDOWN_SMTP_URL is set but FACEDOWN_MAIL_FROM is not: whom do e-mails come from?")
        return Mailer(SmtpConfig.parse(url), sender, context)

    def message_id(self, stable_id: str) -> str:
        return f"<{stable_id}@{self.domain}>"

    def compose(self, mail: Mail) -> EmailMessage:
        """The message as it goes on the wire (``ValueError`` for a header that cannot be, such
        as one with a line break)."""
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = mail.to
        msg["Subject"] = mail.subject
        msg["Date"] = format_datetime(mail.date or datetime.now(timezone.utc))
        msg["Message-ID"] = self.message_id(mail.message_id)
        msg["Auto-Submitted"] = "auto-generated"
        if mail.unsubscribe_url:
            if not mail.unsubscribe_url.startswith(("https://", "http://")):
                raise ValueError("the unsubscribe link must be an http(s) URL")
            msg["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
            msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        msg.set_content(mail.text)
        if mail.html is not None:
            msg.add_alternative(mail.html, subtype="html")
        if mail.language:  # after the body: setting it moves or drops Content-* headers
            msg["Content-Language"] = mail.language
        return msg

    def _connect(self) -> smtplib.SMTP:
        c = self.config
        smtp: smtplib.SMTP
        if c.security == "tls":
            smtp = smtplib.SMTP_SSL(c.host, c.port, timeout=c.timeout, context=self.context)
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=c.timeout)
        try:
            smtp.ehlo()
            if c.security == "starttls":
                smtp.starttls(context=self.context)
                smtp.ehlo()
            if c.user is not None:
                smtp.login(c.user, c.password or "")
        except BaseException:
            smtp.close()
            raise
        return smtp

    def send(self, mails: Sequence[Mail]) -> list[Sent]:
        """Send each message, over one connection; never raises for what SMTP answers. When the
        connection fails, the message in flight and the rest are ``retry``."""
        out: list[Sent] = []
        composed: list[tuple[Mail, EmailMessage | None, str | None]] = []
        for mail in mails:
            try:
                composed.append((mail, self.compose(mail), None))
            except (ValueError, TypeError) as exc:  # the email package refuses what it cannot encode
                composed.append((mail, None, f"cannot be composed: {exc}"[:300]))
        if all(msg is None for _, msg, _ in composed):
            return [Sent("failed", self.message_id(m.message_id), None, why) for m, _, why in composed]
        try:
            smtp = self._connect()
        except (smtplib.SMTPException, OSError) as exc:
            why = _failure(exc)
            return [Sent("retry", self.message_id(m.message_id), why[1], why[2]) if msg is not None
                    else Sent("failed", self.message_id(m.message_id), None, err) for m, msg, err in composed]
        broken: tuple[Status, int | None, str] | None = None
        try:
            for mail, msg, err in composed:
                mid = self.message_id(mail.message_id)
                if msg is None:
                    out.append(Sent("failed", mid, None, err))
                elif broken is not None:
                    out.append(Sent("retry", mid, broken[1], broken[2]))
                else:
                    sent, broken = self._one(smtp, mail, msg)
                    out.append(sent)
        finally:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()
        return out

    def _one(self, smtp: smtplib.SMTP, mail: Mail, msg: EmailMessage
             ) -> tuple[Sent, tuple[Status, int | None, str] | None]:
        """One message on an open connection, and what broke the connection if something did."""
        mid = self.message_id(mail.message_id)
        try:
            refused = smtp.send_message(msg, from_addr=self.address, to_addrs=[mail.to])
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return Sent(_by_code(code), mid, code, _reply(code, text)), None
        except smtplib.SMTPDataError as exc:
            return Sent(_by_code(exc.smtp_code), mid, exc.smtp_code, _reply(exc.smtp_code, exc.smtp_error)), None
        except (smtplib.SMTPException, OSError) as exc:
            status, code, detail = _failure(exc)
            return Sent(status, mid, code, detail), (status, code, detail)
        if refused:  # one recipient only: refused means not sent
            code, text = next(iter(refused.values()))
            return Sent(_by_code(code), mid, code, _reply(code, text)), None
        return Sent("sent", mid), None


def _failure(exc: BaseException) -> tuple[Status, int | None, str]:
    """A failure of the connection, TLS, authentication or the sender: the server's side (or
    its configuration), so the message may go later."""
    if isinstance(exc, smtplib.SMTPResponseException):
        return "retry", exc.smtp_code, _reply(exc.smtp_code, exc.smtp_error)
    return "retry", None, f"{type(exc).__name__}: {exc}"[:300]

