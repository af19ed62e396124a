"""The test SMTP server (tests/support/smtp_server.py) receives what smtplib sends over plain
SMTP, STARTTLS and implicit TLS, with or without AUTH, and parses it; it refuses with the code a
test chooses, and can go down and come back on its port, so that retries can be tested."""
from __future__ import annotations

import email.policy
import smtplib
import ssl
import time
from email.message import EmailMessage

import pytest

from tests.support.smtp_server import SmtpServer

LOGIN = ("facedown", "s3cret")


def _message(subject: str = "C'est à vous de jouer") -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Facedown <turns@facedown.example>"
    message["To"] = "Ana <ana@example.org>"
    message["Subject"] = subject
    message.set_content("It is your turn in game g1.\n")
    message.add_alternative("<p>It is your turn in <a href='https://facedown.example/g1'>game g1</a>.</p>\n",
                            subtype="html")
    return message


def test_a_plain_smtp_message_is_received_with_its_envelope_and_parts() -> None:
    with SmtpServer() as smtp:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            client.send_message(_message(), to_addrs=["ana@example.org", "bo@example.org"])
        [mail] = smtp.wait_for(1)
    assert smtp.url == f"smtp://127.0.0.1:{smtp.port}"
    assert (mail.mail_from, mail.rcpt_tos) == ("turns@facedown.example", ("ana@example.org", "bo@example.org"))
    assert mail.header("Subject") == "C'est à vous de jouer" and mail.header("X-Absent") is None
    assert mail.text() == "It is your turn in game g1.\n"
    assert mail.html() is not None and "https://facedown.example/g1" in mail.html()  # type: ignore[operator]
    assert b"Subject: C'est =?utf-8?q?=C3=A0?= vous" in mail.raw and mail.message.is_multipart()
    assert (mail.tls, mail.login) == (False, None) and abs(mail.at - time.monotonic()) < 5


def test_a_message_with_one_part_has_no_html() -> None:
    message = EmailMessage()
    message["Subject"] = "plain"
    message.set_content("only text\n")
    with SmtpServer() as smtp:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            client.sendmail("a@facedown.example", ["b@example.org"], message.as_bytes(policy=email.policy.SMTP))
        [mail] = smtp.wait_for(1)
    assert (mail.text(), mail.html()) == ("only text\n", None)


@pytest.mark.parametrize("mechanism", ["PLAIN", "LOGIN"])
def test_starttls_then_auth_delivers_over_the_encrypted_connection(mechanism: str) -> None:
    with SmtpServer(tls="starttls", login=LOGIN) as smtp:
        with smtplib.SMTP("localhost", smtp.port, timeout=5) as client:
            client.starttls(context=smtp.client_context())
            client.ehlo()
            client.user, client.password = LOGIN
            code, _ = client.auth(mechanism, client.auth_plain if mechanism == "PLAIN" else client.auth_login)
            assert code == 235
            client.send_message(_message())
        [mail] = smtp.wait_for(1)
    assert (mail.tls, mail.login, mail.rcpt_tos) == (True, "facedown", ("ana@example.org",))


def test_a_starttls_server_refuses_mail_and_auth_before_starttls() -> None:
    with SmtpServer(tls="starttls", login=LOGIN) as smtp:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            client.ehlo()
            assert client.has_extn("starttls") and not client.has_extn("auth")
            assert client.mail("turns@facedown.example")[0] == 530
            with pytest.raises(smtplib.SMTPNotSupportedError):
                client.login(*LOGIN)
        assert smtp.messages == []


def test_the_certificate_is_trusted_by_the_client_context_alone() -> None:
    with SmtpServer(tls="starttls") as smtp:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            with pytest.raises(ssl.SSLCertVerificationError):
                client.starttls(context=ssl.create_default_context())
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            client.starttls(context=smtp.client_context())  # verifies 127.0.0.1 against the certificate
            client.send_message(_message())
        assert smtp.wait_for(1)[0].tls
    with SmtpServer() as plain, pytest.raises(RuntimeError):
        plain.client_context()


def test_implicit_tls_with_auth_delivers() -> None:
    with SmtpServer(tls="implicit", login=LOGIN) as smtp:
        assert smtp.url == f"smtps://127.0.0.1:{smtp.port}"
        with smtplib.SMTP_SSL(smtp.host, smtp.port, context=smtp.client_context(), timeout=5) as client:
            client.login(*LOGIN)
            client.send_message(_message())
        [mail] = smtp.wait_for(1)
    assert (mail.tls, mail.login) == (True, "facedown")


def test_auth_is_required_and_checked() -> None:
    with SmtpServer(login=LOGIN) as smtp:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            with pytest.raises(smtplib.SMTPSenderRefused) as anonymous:
                client.send_message(_message())
            assert anonymous.value.smtp_code == 530
            with pytest.raises(smtplib.SMTPAuthenticationError) as wrong:
                client.login("facedown", "guess")
            assert wrong.value.smtp_code == 535
            client.login(*LOGIN)  # over plain SMTP: no TLS to require when the server has none
            client.send_message(_message())
        [mail] = smtp.wait_for(1)
    assert (mail.tls, mail.login) == (False, "facedown")


def test_a_starttls_server_can_let_a_client_log_in_without_it() -> None:
    with SmtpServer(tls="starttls", login=LOGIN, auth_require_tls=False, require_starttls=False) as smtp:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            client.login(*LOGIN)
            client.send_message(_message())
        [mail] = smtp.wait_for(1)
    assert (mail.tls, mail.login) == (False, "facedown")


def test_the_next_messages_are_refused_with_the_code_chosen() -> None:
    with SmtpServer() as smtp:
        smtp.refuse_next(2)
        smtp.refuse_next(1, code=550, text="5.1.1 No such user")
        with smtplib.SMTP(smtp.host, smtp.port, timeout=5) as client:
            codes = []
            for n in range(3):
                with pytest.raises(smtplib.SMTPDataError) as refused:
                    client.send_message(_message(f"try {n}"))
                codes.append((refused.value.smtp_code, refused.value.smtp_error))
            assert smtp.wait_for(1, timeout=0.05) == []
            client.send_message(_message("try 3"))
        [mail] = smtp.wait_for(1)
    assert codes == [(451, b"4.3.0 Try again later")] * 2 + [(550, b"5.1.1 No such user")]
    assert [(code, m.header("Subject")) for code, m in smtp.refused] == [(451, "try 0"), (451, "try 1"),
                                                                          (550, "try 2")]
    assert mail.header("Subject") == "try 3"


def test_the_server_stops_and_comes_back_on_the_same_port() -> None:
    with SmtpServer(tls="implicit", login=LOGIN) as smtp:
        port = smtp.port
        smtp.stop()
        with pytest.raises(ConnectionRefusedError):
            smtplib.SMTP_SSL(smtp.host, port, context=smtp.client_context(), timeout=5)
        smtp.start()
        assert smtp.port == port
        with smtplib.SMTP_SSL(smtp.host, port, context=smtp.client_context(), timeout=5) as client:
            client.login(*LOGIN)
            client.send_message(_message())
        assert len(smtp.wait_for(1)) == 1


def test_an_unknown_tls_mode_is_refused() -> None:
    with pytest.raises(ValueError):
        SmtpServer(tls="ssl")  # type: ignore[arg-type]
