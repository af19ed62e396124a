"""The SMTP sender (service/adapters/mail.py) against a real SMTP server (tests/support/smtp_server.py):
plain, STARTTLS and implicit TLS, with and without AUTH; the headers RFC 8058 and a stable
Message-ID need; refusals told apart (temporary: retry; permanent: failed)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from service.adapters.mail import Mail, Mailer, Sent, SmtpConfig
from tests.support.smtp_server import SmtpServer

FROM = "facedown <play@facedown.example>"
LOGIN = ("facedown", "s3cr:t@pass")
WHEN = datetime(2026, 3, 1, 9, 30, tzinfo=timezone.utc)


def turn(n: int = 1, to: str = "ana@example.org", **extra: object) -> Mail:
    return Mail(to=to, subject="Your turn in “Friday night”", text=f"It is your turn ({n}).",
                html=f"<p>It is <b>your turn</b> ({n}).</p>", message_id=f"mail-{n}",
                unsubscribe_url=f"https://facedown.example/v1/unsubscribe/{n}", language="pt-BR", date=WHEN,
                **extra)  # type: ignore[arg-type]


def mailer(server: SmtpServer, *, login: tuple[str, str] | None = None, starttls: bool = False) -> Mailer:
    auth = f"{login[0]}:{login[1].replace('@', '%40').replace(':', '%3A')}@" if login else ""
    query = "?starttls=1" if starttls else ""
    url = f"{server.url.split('://')[0]}://{auth}{server.host}:{server.port}{query}"
    return Mailer(SmtpConfig.parse(url), FROM, server.client_context() if server.tls else None)


def test_a_message_goes_with_text_and_html_a_stable_message_id_and_one_click_unsubscribe() -> None:
    with SmtpServer() as smtp:
        m = mailer(smtp)
        assert m.send([turn()]) == [Sent("sent", "<mail-1@facedown.example>")]
        [got] = smtp.wait_for(1)
    assert (got.mail_from, got.rcpt_tos, got.tls, got.login) == ("play@facedown.example", ("ana@example.org",),
                                                                 False, None)
    assert got.header("Message-ID") == "<mail-1@facedown.example>"
    assert got.header("Subject") == "Your turn in “Friday night”" and got.header("From") == FROM
    assert got.header("List-Unsubscribe") == "<https://facedown.example/v1/unsubscribe/1>"
    assert got.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
    assert got.header("Content-Language") == "pt-BR" and got.header("Auto-Submitted") == "auto-generated"
    assert got.header("Date") == "Sun, 01 Mar 2026 09:30:00 +0000"
    assert got.text() == "It is your turn (1).\n" and got.html() == "<p>It is <b>your turn</b> (1).</p>\n"
    assert got.message.get_content_type() == "multipart/alternative"


def test_a_message_sent_again_keeps_its_message_id() -> None:
    with SmtpServer() as smtp:
        m = mailer(smtp)
        m.send([turn(7)])
        m.send([turn(7)])
        first, again = smtp.wait_for(2)
    assert first.header("Message-ID") == again.header("Message-ID") == "<mail-7@facedown.example>"


def test_starttls_then_login_before_any_mail() -> None:
    with SmtpServer(tls="starttls", login=LOGIN) as smtp:
        assert [s.status for s in mailer(smtp, login=LOGIN, starttls=True).send([turn()])] == ["sent"]
        [got] = smtp.wait_for(1)
    assert (got.tls, got.login) == (True, "facedown")


def test_implicit_tls_smtps_with_login() -> None:
    with SmtpServer(tls="implicit", login=LOGIN) as smtp:
        assert smtp.url.startswith("smtps://")
        assert [s.status for s in mailer(smtp, login=LOGIN).send([turn()])] == ["sent"]
        [got] = smtp.wait_for(1)
    assert (got.tls, got.login) == (True, "facedown")


def test_a_server_that_requires_starttls_refuses_a_plain_sender_for_now_not_for_good() -> None:
    with SmtpServer(tls="starttls", login=LOGIN) as smtp:
        m = Mailer(SmtpConfig.parse(f"smtp://{smtp.host}:{smtp.port}"), FROM)
        [sent] = m.send([turn()])
    assert sent.status == "retry" and smtp.messages == []


def test_a_certificate_that_is_not_trusted_is_refused() -> None:
    with SmtpServer(tls="implicit") as smtp:
        [sent] = Mailer(SmtpConfig.parse(smtp.url), FROM).send([turn()])  # the system's trust, not this one
    assert sent.status == "retry" and "CERTIFICATE" in (sent.detail or "").upper() and smtp.messages == []


def test_a_wrong_password_is_the_servers_side_and_is_tried_again_later() -> None:
    with SmtpServer(tls="starttls", login=LOGIN) as smtp:
        [sent] = mailer(smtp, login=("facedown", "wrong"), starttls=True).send([turn()])
    assert (sent.status, sent.code) == ("retry", 535) and smtp.messages == []


def test_a_temporary_refusal_is_retried_and_a_permanent_one_fails_and_the_rest_still_go() -> None:
    with SmtpServer() as smtp:
        m = mailer(smtp)
        smtp.refuse_next(1, 451)
        assert [(s.status, s.code) for s in m.send([turn(1)])] == [("retry", 451)]
        smtp.refuse_next(1, 550, "5.1.1 No such mailbox")
        got = m.send([turn(2), turn(3), turn(4)])
        assert [(s.status, s.code) for s in got] == [("failed", 550), ("sent", None), ("sent", None)]
        assert got[0].detail == "550 5.1.1 No such mailbox"
        assert [x.header("Message-ID") for x in smtp.wait_for(2)] == ["<mail-3@facedown.example>",
                                                                       "<mail-4@facedown.example>"]


def test_a_server_that_is_down_leaves_every_message_to_retry() -> None:
    with SmtpServer() as smtp:
        m = mailer(smtp)
        smtp.stop()
        assert {s.status for s in m.send([turn(1), turn(2)])} == {"retry"}
        smtp.start()  # back on the same port
        assert [s.status for s in m.send([turn(1)])] == ["sent"]


def test_a_header_that_cannot_be_fails_alone_and_sends_nothing() -> None:
    with SmtpServer() as smtp:
        bad = Mail(to="ana@example.org", subject="Your turn\r\nBcc: all@example.org", text="x", message_id="bad")
        got = mailer(smtp).send([bad, turn(2)])
        assert [s.status for s in got] == ["failed", "sent"]
        [only] = smtp.wait_for(1)
    assert only.rcpt_tos == ("ana@example.org",) and only.header("Bcc") is None


@pytest.mark.parametrize(("url", "config"), [
    ("smtp://relay.example", SmtpConfig("relay.example", 25, "plain")),
    ("smtp://u:p%40ss@mail.example?starttls=1", SmtpConfig("mail.example", 587, "starttls", "u", "p@ss")),
    ("smtp://mail.example:2525?starttls=true&timeout=3", SmtpConfig("mail.example", 2525, "starttls", timeout=3.0)),
    ("smtps://u:p@mail.example", SmtpConfig("mail.example", 465, "tls", "u", "p")),
])
def test_the_url_forms(url: str, config: SmtpConfig) -> None:
    assert SmtpConfig.parse(url) == config


@pytest.mark.parametrize("url", ["http://mail.example", "smtp://", "smtps://h?starttls=1", "smtp://h?tls=1",
                                 "smtp://h:port", "smtp://h?timeout=0"])
def test_a_url_that_cannot_be_used_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(ValueError) as refused:
        SmtpConfig.parse(url.replace("://", "://user:hunter2@", 1) if "://h" in url else url)
    assert "hunter2" not in str(refused.value)
    assert "hunter2" not in repr(SmtpConfig("h", 25, "plain", "user", "hunter2"))


def test_with_no_smtp_url_nothing_is_emailed_and_with_one_the_sender_is_required() -> None:
    assert Mailer.from_env({}) is None and Mailer.from_env({"FACEDOWN_SMTP_URL": " "}) is None
    with pytest.raises(ValueError, match="FACEDOWN_MAIL_FROM"):
        Mailer.from_env({"FACEDOWN_SMTP_URL": "smtp://relay.example"})
    made = Mailer.from_env({"FACEDOWN_SMTP_URL": "smtp://relay.example", "FACEDOWN_MAIL_FROM": FROM})
    assert made is not None and (made.address, made.domain) == ("play@facedown.example", "facedown.example")
