"""Ratings as players read them (docs/ratings.md): a ruleset's leaderboard, a player's
ratings with their history, a finished game's changes (``facedown ratings rebuild``:
``service.entrypoints.cli_ratings``).
"""
from __future__ import annotations

import base64
import json
import uuid
from typing import Any

from events import ratings as store
from service.model.game import Game, iso
from service.model.problems import Problem
from service.model.ratings import Rating, is_rated
from service.usecases.dependencies import Dependencies


def _player(row: store.Row) -> dict[str, Any]:
    return {"id": str(row.player_id), "name": row.name, "handle": row.handle, "bot": row.bot}


def _rated(mu: float, sigma: float) -> dict[str, Any]:
    r = Rating(mu, sigma)
    return {"rating": r.rating, "mu": r.mu, "sigma": r.sigma}


def _cursor(row: store.Row) -> str:
    raw = json.dumps([row.rating, str(row.player_id)]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _after(cursor: str | None) -> tuple[float, uuid.UUID] | None:
    if not cursor:
        return None
    try:
        value = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return float(value[0]), uuid.UUID(value[1])
    except (ValueError, TypeError, IndexError, KeyError):
        raise Problem("validation", "the cursor is not one this list gave",
                      errors={"cursor": ["use a next_cursor of the same list"]}) from None


def board(deps: Dependencies, ruleset: str, cursor: str | None, limit: int) -> dict[str, Any]:
    """A page of the ruleset's leaderboard, best first (``GET /v1/ratings/{ruleset}``)."""
    rows = store.board(deps.db, ruleset, _after(cursor), limit + 1)
    page = rows[:limit]
    items = []
    for row in page:
        r = Rating(row.mu, row.sigma, row.games)
        items.append({"player": _player(row), "rating": r.rating, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                      "provisional": r.provisional})
    return {"ruleset": ruleset, "ratings": items,
            "next_cursor": _cursor(page[-1]) if len(rows) > limit and page else None}


def of_player(deps: Dependencies, player_id: uuid.UUID) -> dict[str, Any]:
    """ruleset -> the player's rating there, with one history entry per rated game (oldest first)."""
    rows, history = store.of_player(deps.db, player_id)
    out: dict[str, Any] = {}
    for row in rows:
        r = Rating(row.mu, row.sigma, row.games)
        out[row.ruleset] = {"rating": r.rating, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                            "provisional": r.provisional, "history": []}
    for h in history:
        if h.ruleset in out:
            out[h.ruleset]["history"].append({
                "game_id": str(h.game_id), "at": iso(h.at), "seat": h.seat, "rank": h.rank,
                "before": _rated(h.mu_before, h.sigma_before), "after": _rated(h.mu_after, h.sigma_after)})
    return out


def of_game(deps: Dependencies, game: Game) -> list[dict[str, Any]] | None:
    """A finished rated game's changes per seat (``None``: not rated, or not finished)."""
    if game.status != "finished" or not is_rated(game):
        return None
    stored = store.of_game(deps.db, uuid.UUID(game.id))
    if stored is None:
        return None
    return [{"seat": p["seat"], "player_id": p["player_id"], "rank": p["rank"],
             "before": _rated(p["mu_before"], p["sigma_before"]), "after": _rated(p["mu_after"], p["sigma_after"])}
            for p in sorted(stored, key=lambda p: p["seat"])]
