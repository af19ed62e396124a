"""The snapshot of a folded game: versioned JSON (UTF-8 bytes), never a pickle.

``{"format": domain.state_codec.FORMAT, "game": <the Game's JSON form>}``. Reading one
builds only the service's and the domain's value classes, so whoever can write the
snapshots table can at worst make a worker believe a wrong game state (which the
hash-chained log it is rebuilt from corrects), never run code in it. A snapshot is only
read by the code that wrote it (the store matches :func:`fingerprint`, which covers this
module, the game's and the domain); one it cannot read is rebuilt from the log.
"""
from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import orjson

import domain
from domain.state_codec import FORMAT, StateCodec, value_classes
from service.model.game import Deadline, Game, Pause, Reservation, SeatInfo, TimeControl, Vote


@cache
def codec() -> StateCodec:
    """Every value class of the domain (each ruleset's states among them) and the service's Game
    with what it holds (seats, their reservations, votes, vacation pauses, its time control)."""
    return StateCodec((*value_classes(domain), Game, SeatInfo, Deadline, Reservation, Vote, Pause, TimeControl))


def dumps(game: Game) -> bytes:
    """The snapshot of ``game``."""
    return orjson.dumps({"format": FORMAT, "game": codec().encode(game)})


def loads(data: bytes) -> Game:
    """The game of a snapshot made by :func:`dumps`; ``ValueError`` (or ``TypeError``) for
    anything else, a snapshot of another format included."""
    doc: Any = orjson.loads(data)
    if type(doc) is not dict or doc.get("format") != FORMAT or set(doc) != {"format", "game"}:
        raise ValueError("not a snapshot of this format")
    game = codec().decode(doc["game"])
    if type(game) is not Game:
        raise ValueError(f"a snapshot holds a Game, not a {type(game).__name__}")
    return game


@cache
def fingerprint() -> str:
    """What a snapshot must have been made by to be read: sha256 over the source of every
    domain module, of the module whose classes a snapshot holds (the game's) and of this one,
    which encodes it (computed once per process)."""
    root = Path(domain.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    here = Path(__file__).parent
    for name in ("game.py", "snapshots.py"):
        h.update(f"service/model/{name}\0".encode())
        h.update((here / name).read_bytes())
    return h.hexdigest()
