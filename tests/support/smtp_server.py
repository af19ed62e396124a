"""A real SMTP server on a loopback port, for the tests of the service's e-mail sender.

aiosmtpd's server, run by its controller in a thread, keeps every message it accepts::

    with SmtpServer(tls="starttls", login=("facedown", "s3cret")) as smtp:
        with smtplib.SMTP(smtp.host, smtp.port) as client:
            client.starttls(context=smtp.client_context())
            client.login("facedown", "s3cret")
            client.send_message(message)
        [mail] = smtp.wait_for(1)
        assert mail.rcpt_tos == ("ana@example.org",) and "your turn" in mail.text()

``tls``: None (plain SMTP), ``"starttls"`` (RFC 3207; the server then answers nothing but
EHLO, NOOP, RSET, QUIT and STARTTLS before STARTTLS, as a submission port does, unless
``require_starttls=False``) or ``"implicit"`` (TLS from the first octet, ``smtps://``),
with a self-signed certificate for ``localhost`` and ``127.0.0.1`` made by :func:`self_signed`;
:meth:`SmtpServer.client_context` is an ``ssl.SSLContext`` that trusts it, and only it.

``login``: a user and password; AUTH PLAIN and LOGIN are then offered and MAIL is refused (530)
until the client has logged in. ``auth_require_tls`` (default: whether TLS is on) makes AUTH
wait for STARTTLS; with implicit TLS the connection is encrypted from the start, so AUTH is
always allowed (aiosmtpd would otherwise look for a STARTTLS that never comes). To let a client
log in before STARTTLS, pass both ``auth_require_tls=False`` and ``require_starttls=False``.

To test retries: :meth:`SmtpServer.refuse_next` answers the next messages' DATA with a code of
the test's choosing (451 by default, a temporary failure; 550 for a permanent one), and
:meth:`SmtpServer.stop` / :meth:`SmtpServer.start` take the server down and bring it back on
the same port.
"""
from __future__ import annotations

import asyncio
import datetime
import email.policy
import ipaddress
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, Literal

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

Tls = Literal["starttls", "implicit"]


@dataclass(frozen=True)
class Mail:
    """One message as the server received it: the envelope, the raw octets, the parsed message,
    who had logged in, whether the connection was encrypted, and when (``time.monotonic()``, to
    measure a sender's retry intervals)."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    raw: bytes
    message: EmailMessage
    login: str | None
    tls: bool
    at: float

    def header(self, name: str) -> str | None:
        """A header's value, decoded (RFC 2047 words included), or None when it is absent."""
        value = self.message.get(name)
        return None if value is None else str(value)

    def text(self) -> str | None:
        """The text/plain body (of a multipart/alternative too), or None when there is none."""
        return self._body("plain")

    def html(self) -> str | None:
        return self._body("html")

    def _body(self, subtype: str) -> str | None:
        part = self.message.get_body(preferencelist=(subtype,))
        if part is None or part.get_content_subtype() != subtype:
            return None
        content = part.get_content()
        return content if isinstance(content, str) else content.decode()


def self_signed(hosts: tuple[str, ...] = ("localhost", "127.0.0.1")) -> tuple[bytes, bytes]:
    """A certificate (PEM) for ``hosts`` signed by its own P-256 key, and that key (PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])])
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return cert.public_bytes(serialization.Encoding.PEM), key_pem


class _Handler:
    """aiosmtpd's handler: the hooks it calls for MAIL and DATA."""

    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope, address: str,  # noqa: N802
                          mail_options: list[str]) -> str:
        if self.server.login is not None and not session.authenticated:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        raw = envelope.original_content or b""
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
        # session.ssl is set by STARTTLS only; an implicit-TLS connection shows in its transport
        tls = session.ssl is not None or (server.transport is not None
                                          and server.transport.get_extra_info("ssl_object") is not None)
        # CRLF ends SMTP's lines (RFC 5321 section 2.3.8); the message is parsed with \n, as a
        # reader's mail client shows it
        message = BytesParser(policy=email.policy.default).parsebytes(raw.replace(b"\r\n", b"\n"))
        mail = Mail(mail_from=envelope.mail_from or "", rcpt_tos=tuple(envelope.rcpt_tos), raw=raw,
                    message=message, login=login, tls=tls, at=time.monotonic())
        return self.server._receive(mail)


class SmtpServer:
    """The server; a context manager that serves on ``127.0.0.1`` on a free port."""

    host = "127.0.0.1"

    def __init__(self, tls: Tls | None = None, login: tuple[str, str] | None = None,
                 auth_require_tls: bool | None = None, require_starttls: bool = True) -> None:
        if tls not in (None, "starttls", "implicit"):
            raise ValueError(f"tls is None, 'starttls' or 'implicit', not {tls!r}")
        self.tls = tls
        self.login = login
        self.auth_require_tls = tls is not None if auth_require_tls is None else auth_require_tls
        self.require_starttls = require_starttls
        self.port = 0
        self.messages: list[Mail] = []
        #: the messages refused by :meth:`refuse_next`, with the code each got
        self.refused: list[tuple[int, Mail]] = []
        self._refusals: list[tuple[int, str]] = []
        self._lock = threading.Lock()
        self._controller: Controller | None = None
        self._cert_pem = b""
        self._server_context: ssl.SSLContext | None = None
        if tls is not None:
            self._cert_pem, key_pem = self_signed()
            self._server_context = _server_context(self._cert_pem, key_pem)

    @property
    def url(self) -> str:
        return f"{'smtps' if self.tls == 'implicit' else 'smtp'}://{self.host}:{self.port}"

    def client_context(self) -> ssl.SSLContext:
        """A client's TLS context that trusts this server's certificate (and verifies it and its
        host name, as a sender's default context does)."""
        if not self._cert_pem:
            raise RuntimeError("this server does not speak TLS")
        return ssl.create_default_context(cadata=self._cert_pem.decode())

    def __enter__(self) -> SmtpServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._controller is not None:
            self.stop()

    def start(self) -> None:
        """Serve (again): on a free port the first time, on the same port after :meth:`stop`."""
        implicit = self.tls == "implicit"
        kwargs: dict[str, Any] = {}
        if self.tls == "starttls":
            kwargs.update(tls_context=self._server_context, require_starttls=self.require_starttls)
        if self.login is not None:
            kwargs.update(authenticator=self._authenticate,
                          # an implicit-TLS connection is encrypted, but aiosmtpd only counts STARTTLS
                          auth_require_tls=self.auth_require_tls and not implicit)
        controller = _Controller(_Handler(self), hostname=self.host, port=self.port, server_hostname="localhost",
                                 ssl_context=self._server_context if implicit else None, **kwargs)
        controller.start()
        self.port = controller.port
        self._controller = controller

    def stop(self) -> None:
        """Stop serving: connections to the port are refused until :meth:`start`."""
        assert self._controller is not None, "not serving"
        self._controller.stop()
        self._controller = None

    def refuse_next(self, count: int = 1, code: int = 451, text: str = "4.3.0 Try again later") -> None:
        """Answer the DATA of the next ``count`` messages with ``code`` and ``text``."""
        with self._lock:
            self._refusals.extend([(code, text)] * count)

    def wait_for(self, count: int, timeout: float = 5.0) -> list[Mail]:
        """The accepted messages once there are ``count`` of them, or all there are at the timeout."""
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return list(self.messages)

    def _receive(self, mail: Mail) -> str:
        with self._lock:
            if self._refusals:
                code, text = self._refusals.pop(0)
                self.refused.append((code, mail))
                return f"{code} {text}"
            self.messages.append(mail)
        return "250 OK"

    def _authenticate(self, server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                      auth_data: Any) -> AuthResult:
        assert self.login is not None
        user, password = self.login
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login == user.encode() and auth_data.password == password.encode())
        # handled=False: aiosmtpd then answers 535 itself
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)


class _Controller(Controller):
    """aiosmtpd's controller, told the port the system chose when it was asked for port 0 (it
    connects to its own port once started, and would try port 0)."""

    def _create_server(self) -> Any:
        create = super()._create_server()

        async def bound() -> asyncio.Server:
            server = await create
            assert isinstance(server, asyncio.Server)
            self.port = server.sockets[0].getsockname()[1]
            return server

        return bound()


def _server_context(cert_pem: bytes, key_pem: bytes) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    # load_cert_chain reads only files; the context keeps them in memory once loaded
    with tempfile.TemporaryDirectory() as folder:
        cert, key = Path(folder, "cert.pem"), Path(folder, "key.pem")
        cert.write_bytes(cert_pem)
        key.write_bytes(key_pem)
        context.load_cert_chain(cert, key)
    return context
