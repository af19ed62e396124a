"""Every answer a test's server gives, checked against openapi.yaml as it arrives."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import requests

from service.contract.check import Contract


@contextmanager
def answers_checked(base_url: str) -> Iterator[list[str]]:
    """Within the block, each response from ``base_url`` is validated against the contract
    (operation, status, media type, JSON body); the block yields the list of what was wrong."""
    contract, wrong = Contract.load(), []
    original = requests.Session.request

    def request(self: requests.Session, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:
        response = original(self, method, url, *args, **kwargs)
        if url.startswith(base_url) and not kwargs.get("stream"):
            media = response.headers.get("Content-Type", "")
            body = response.json() if "json" in media and response.content else None
            errors = contract.response_errors(method, urlsplit(url).path, response.status_code, media, body)
            if response.status_code in (404, 405) and all("no such" in e for e in errors):
                # a route that does not exist: the contract cannot list it, but it is a problem too
                errors = [] if media.startswith("application/problem+json") else [f"{method} {url}: {media}"]
            wrong.extend(errors)
        return response

    requests.Session.request = request  # type: ignore[method-assign]
    try:
        yield wrong
    finally:
        requests.Session.request = original  # type: ignore[method-assign]
