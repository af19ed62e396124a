"""A list's answer over HTTP: an entity tag of its content, ``304`` when it is unchanged,
and ``wait`` (a long-poll until something in the list changes)."""
from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Response, request
from marshmallow import Schema

from service.http.requests import deps, dumps

Page = Callable[[], dict[str, Any]]


def _tag(body: bytes) -> str:
    return 'W/"' + hashlib.sha256(body).hexdigest()[:24] + '"'


def listing(schema: Schema, page: Page, wait: int, also_watch: Iterable[str] = ()) -> Response:
    """The page, or ``304`` if it is what the client holds (``If-None-Match``); with
    ``wait`` seconds, first wait until it is not: woken by a hint for any game of the
    page (or ``also_watch``: the caller's own stream, which an invitation wakes), else
    re-checked on a timer."""
    held = request.headers.get("If-None-Match")
    config = deps().config
    deadline = time.monotonic() + min(wait, config.long_poll_max)
    out = page()
    body = dumps(schema.dump(out))
    if held == _tag(body) and wait > 0 and config.long_poll_max > 0:
        ids = [g["id"] for g in out["games"]] + list(also_watch)
        with deps().live.waiters().watch(*(ids or ["-"])) as watch:
            while held == _tag(body):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                # new games join a list without a hint for them: the timer finds those
                watch.wait(min(remaining, config.recheck_seconds * random.uniform(0.25, 0.5)))
                body = dumps(schema.dump(page()))
    tag = _tag(body)
    headers = {"ETag": tag, "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    if held == tag:
        return Response(status=304, headers=headers)
    return Response(body, 200, mimetype="application/json", headers=headers)
