"""What a 404 says in our words: which part of the path is wrong, or that nothing is served there.

The router answers 404 before any handler runs when a path has no route, or when a part
of it does not fit its route (a game id that is not a UUID, an order id that is not a
number). Its own text is the framework's; :func:`detail` finds which route the path was
meant for and names the part that does not fit it.
"""
from __future__ import annotations

import re

from werkzeug.routing import Map

#: How each kind of path part is written, for the reader of a refusal.
_KINDS = {"uuid": "a UUID", "int": "a whole number"}
#: Where a caller finds the right value of a path part.
_WHERE = {"game_id": " (a game's id, as `POST /v1/games` and `GET /v1/me/games` give it)",
          "token_id": " (as `GET /v1/me/tokens` lists it)",
          "webhook_id": " (as `GET /v1/me/webhooks` lists it)",
          "order_id": " (as the view's `orders` lists it)"}
_PART = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
NO_PATH = "nothing is served at this path; every path of the API is in /openapi.yaml"
NO_FILE = "there is no such file here"  # a path whose route serves files (the web client's)


def malformed(name: str, kind: str) -> str:
    """The refusal of a path whose part ``name`` is not of its ``kind`` (a converter's name)."""
    return f"the {name.replace('_', ' ')} in this path is not {_KINDS.get(kind, 'valid')}{_WHERE.get(name, '')}"


def detail(url_map: Map, path: str) -> str:
    """Why ``path`` has no route: the first part of it that does not fit the route it is
    shaped like, else that nothing is served there."""
    for rule in url_map.iter_rules():
        parts = _PART.findall(rule.rule)
        if not parts:
            continue
        loose = "([^/]+)".join(re.escape(literal) for literal in _PART.split(rule.rule)[::3])
        match = re.fullmatch(loose, path)
        if match is None:
            continue
        for (kind, name), value in zip(parts, match.groups()):
            regex = getattr(url_map.converters.get(kind or "default"), "regex", "[^/]+")
            if re.fullmatch(regex, value) is None:
                return malformed(name, kind)
    return NO_PATH
