"""A remembered token's liveness, read in the round trip of the request's first statement.

Each authenticated request must be refused from the moment its token's revocation is committed
(docs/performance.md). The read of that rides ahead of the request's next statement
(``events.db.Database.guard``): a revoked token's statement, an append included, never runs, and
a live one costs no round trip of its own. What is left to answer here: that refusal (401, and
this worker forgets the token), and a request that sent no statement at all, whose check runs
before it answers.
"""
from __future__ import annotations

from flask import Flask, Response, g, request

from events.errors import NotLive, StoreUnavailable
from service.http.problems import from_exception, invalid_token, session_ended, unavailable
from service.http.requests import deps
from service.usecases.accounts import forget_token


def _refused() -> Response:
    digest = g.get("facedown_guarded")
    if digest is not None:
        forget_token(deps(), digest)
    bearer = request.headers.get("Authorization") is not None
    return from_exception(invalid_token() if bearer else session_ended())


def _settle(response: Response) -> Response:
    """After every request: the check still pending (no statement followed it) runs now, and
    a refusal replaces the answer."""
    try:
        deps().db.settle()
    except NotLive:
        return _refused()
    except StoreUnavailable:
        return unavailable("the database cannot be reached; try again shortly")
    return response


def _forget(_: BaseException | None) -> None:
    deps().db.unguard()  # nothing of this request's rides on the next one's statement


def install(app: Flask) -> None:
    """The refusal's answer, the check before answering, and its end with the request."""
    app.register_error_handler(NotLive, lambda _exc: _refused())
    app.after_request(_settle)
    app.teardown_request(_forget)
