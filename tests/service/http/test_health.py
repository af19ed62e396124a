"""The service skeleton: probes and problem+json for unknown paths."""
from __future__ import annotations

from typing import Any


def test_readyz_answers_200_on_a_migrated_database(make_app: Any) -> None:
    client = make_app().test_client()
    assert client.get("/healthz").status_code == 200
    resp = client.get("/readyz")
    assert resp.status_code == 200 and resp.get_json() == {"status": "ready"}


def test_readyz_is_503_problem_when_the_database_is_unreachable(make_app: Any) -> None:
    app = make_app()
    ctx = app.extensions["facedown"]
    ctx.db.close()
    resp = app.test_client().get("/readyz")
    assert resp.status_code == 503
    assert resp.mimetype == "application/problem+json"
    assert resp.get_json()["type"].endswith("/unavailable")


def test_unknown_paths_and_methods_are_problem_json_not_html(make_app: Any) -> None:
    client = make_app().test_client()
    missing = client.get("/no/such/thing")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"
    wrong = client.delete("/healthz")
    assert wrong.status_code == 405 and wrong.mimetype == "application/problem+json"
    assert "GET" in wrong.headers["Allow"]
