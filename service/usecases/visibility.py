"""Who may see a game: anyone a public one; an unlisted one only its seated and invited
players, or someone who shows its invite code. A stranger is told it does not exist."""
from __future__ import annotations

import logging
import uuid

from events import game_index
from service.model.caches import Lru
from service.model.game import Game, UnreadableLog
from service.model.problems import Problem
from service.usecases.dependencies import Dependencies
from service.usecases.lobby import code_matches

# game -> (visibility, its players): visibility never changes; the players are re-read
# whenever they would refuse someone (a player who joined through another worker)
_SEEN = Lru(100_000)
log = logging.getLogger(__name__)


def members(game: Game) -> frozenset[str]:
    seated = {s.player_id for s in game.seats if s is not None}
    return frozenset(seated | {r.player_id for r in game.reserved if r is not None})


def visible(deps: Dependencies, gid: uuid.UUID, player: str | None, code: str | None = None) -> bool:
    """May ``player`` (None: anonymous) see the game? True for a game that does not exist
    (the handler answers 404 itself)."""
    hit = _SEEN.get_(gid)
    if hit is None or (hit[0] == "unlisted" and player not in hit[1]):
        try:
            game = deps.games.load(gid).game
            hit = (game.visibility, members(game))
        except Problem:
            return True
        except UnreadableLog:
            # a log this code cannot fold (an event edited in the database): its audit must
            # still answer, to say which version is wrong, so the read model decides
            log.warning("game %s cannot be folded; its visibility is read from the game index", gid,
                        exc_info=True)
            indexed = game_index.visibility_of(deps.db, gid)
            if indexed is None:
                return True
            hit = indexed
        _SEEN.put(gid, hit)
    if hit[0] == "public" or (player is not None and player in hit[1]):
        return True
    return code_matches(deps, gid, code)
