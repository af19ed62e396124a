"""Every answer a test's server gives, checked against openapi.yaml as it arrives."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import requests

from service.tools.contract.check import Contract

EVERY_UP_TO = 20
THEN_ONE_IN = 20


@contextmanager
def answers_checked(base_url: str) -> Iterator[list[str]]:
    """Within the block, responses from ``base_url`` are validated against the contract
    (operation, status, media type, JSON body); the block yields the list of what was wrong.

    Every kind of answer (method, path, status) is checked its first :data:`EVERY_UP_TO` times,
    then one in :data:`THEN_ONE_IN`: a bot game over HTTP gives thousands of views alike, and
    checking each spent more time than playing the game (the e2e bots' four games: 99 s); at
    100 and one in 10 it was still a sixth of the CPU of the API's tests.
    Every legal action and redacted event of played games is checked one by one in
    tests/contract/test_generated_schemas.py."""
    contract, wrong = Contract.load(), []
    original = requests.Session.request
    seen: Counter[tuple[str, str | None, int]] = Counter()

    def request(self: requests.Session, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:
        response = original(self, method, url, *args, **kwargs)
        if url.startswith(base_url) and not kwargs.get("stream"):
            kind = (method, contract.template(urlsplit(url).path), response.status_code)
            seen[kind] += 1
            if seen[kind] > EVERY_UP_TO and seen[kind] % THEN_ONE_IN:
                return response
            media = response.headers.get("Content-Type", "")
            body = response.json() if "json" in media and response.content else None
            errors = contract.response_errors(method, urlsplit(url).path, response.status_code, media, body)
            if response.status_code in (404, 405) and errors and all("no such" in e for e in errors):
                # a route that does not exist: the contract cannot list it, but it is a problem too
                errors = [] if media.startswith("application/problem+json") else [f"{method} {url}: {media}"]
            wrong.extend(errors)
        return response

    requests.Session.request = request  # type: ignore[method-assign]
    try:
        yield wrong
    finally:
        requests.Session.request = original  # type: ignore[method-assign]
