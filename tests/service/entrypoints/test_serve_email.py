"""What `facedown serve` says about e-mail when it starts (once, before gunicorn runs)."""
from __future__ import annotations

from service.entrypoints.serve import email_status


def test_serve_says_that_email_is_off_without_a_server_and_where_it_goes_with_one() -> None:
    off = email_status({})
    assert "e-mail is off" in off and "FACEDOWN_SMTP_URL" in off
    on = email_status({"FACEDOWN_SMTP_URL": "smtps://user:s3cret@mail.example.org",
                       "FACEDOWN_MAIL_FROM": "facedown <noreply@example.org>"})
    assert "mail.example.org" in on and "s3cret" not in on and "noreply@example.org" in on
