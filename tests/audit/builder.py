"""Finished games written with the same stream shape as the API (issue 5).

GameOpened, SeatTaken x n (the last one in the same append as the ruleset's start
events, key = fairness.game_key(secret, entropy by seat)), then one append per
command with metadata {actor, player, command, command_id, at}, and SecretRevealed
in the append that ends the game. Views are recorded per version as each seat saw
them, so that point-in-time views can be compared with what was shown.
"""
from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from domain import bots, codec, rules
from domain.choices import command, pick
from events.canonical import GENESIS, chain_hash, event_body
from events.store import EventStore, NewEvent
from service.model import fairness


@dataclass
class Game:
    game_id: uuid.UUID
    ruleset: str
    players: int
    secret: bytes
    entropy: list[bytes]
    #: appends in order: list of (type, data, metadata)
    appends: list[list[tuple[str, dict[str, Any], dict[str, Any]]]] = field(default_factory=list)
    #: version -> {seat: view} after that append (only versions at an append's end)
    seen: dict[int, dict[int, Any]] = field(default_factory=dict)
    finished: bool = False

    def events(self) -> list[dict[str, Any]]:
        """Export-shaped events with their hash chain, computed here (not by the store)."""
        out, prev, v = [], GENESIS, 0
        for batch in self.appends:
            for type_, data, meta in batch:
                v += 1
                h = chain_hash(prev, v, event_body(type_, 1, data, meta))
                out.append({"version": v, "type": type_, "schema_version": 1, "data": data, "metadata": meta,
                            "time": meta.get("at"), "actor": meta.get("actor"),
                            "prev_hash": prev.hex(), "hash": h.hex()})
                prev = h
        return out


def _meta(n: int, seat: int | None, player: str | None, command: Any = None) -> dict[str, Any]:
    # as service/usecases/playing.py: actor = seat; the command id is the client's Idempotency-Key (may be null)
    return {"actor": seat, "player": player, "command": command,
            "command_id": f"key-{n}" if command is not None and n % 3 else None,
            "at": f"2025-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.{n % 997:06d}Z"}


def play(ruleset_name: str, players: int = 2, seed: int = 0, options: dict[str, Any] | None = None,
         stop_after_rounds: int | None = None, max_steps: int = 4000) -> Game:
    """Play with random bots; ``stop_after_rounds`` leaves the game active after that many rounds."""
    rs = rules.get(ruleset_name)
    rng = random.Random(seed)
    secret = rng.randbytes(32)
    entropy = [rng.randbytes(16) for _ in range(players)]
    game = Game(uuid.UUID(int=rng.getrandbits(128)), ruleset_name, players, secret, entropy)
    pid = [f"player-{s}" for s in range(players)]
    n = 0
    game.appends.append([("GameOpened", {"ruleset": ruleset_name, "seats": players, "options": rs.resolve_options(options or {}, players),
                                          "name": f"{ruleset_name} test", "creator": pid[0],
                                          "secret_commitment": fairness.secret_commitment(secret)},
                          _meta(n, None, pid[0]))])
    key = fairness.game_key(secret, entropy)
    for s in range(players):
        n += 1
        meta = _meta(n, s, pid[s])
        batch = [("SeatTaken", {"seat": s, "player_id": pid[s], "name": f"P{s}", "entropy": entropy[s].hex()}, meta)]
        if s == players - 1:
            started = rs.start(players, rs.resolve_options(options or {}, players), key)
            batch += [(type(e).__name__, codec.to_json(e), _meta(n, None, None)) for e in started]
        game.appends.append(batch)
    state = None
    for batch in game.appends:
        for type_, data, _ in batch:
            if type_ not in ("GameOpened", "SeatTaken"):
                state = rs.evolve(state, codec.build(rs.event_types[type_], data))
    version = sum(len(b) for b in game.appends)
    game.seen[version] = {s: rs.view(state, s) for s in range(players)}
    policy = bots.policy(ruleset_name, "random")
    rounds = 0
    for _ in range(max_steps):
        if rs.is_terminal(state) or (stop_after_rounds is not None and rounds >= stop_after_rounds):
            break
        awaited = set(rs.awaiting(state))
        chosen = None
        seats = list(range(players))
        rng.shuffle(seats)
        for seat in seats:
            actions = rs.legal_actions(state, seat)
            if actions:
                action = policy(rs.view(state, seat), actions, rng, seat in awaited)
                if action is None and seat in awaited:
                    action = pick(actions[rng.randrange(len(actions))], rng)
                if action is not None:
                    chosen = (seat, command(action))  # as the service keeps it: without choices
                    break
        assert chosen is not None, "nobody can act"
        seat, action = chosen
        produced = rs.decide(state, seat, rs.parse_command(action), key)
        n += 1
        meta = _meta(n, seat, pid[seat], action)
        batch = [(type(e).__name__, codec.to_json(e), meta) for e in produced]
        for e in produced:
            state = rs.evolve(state, e)
            rounds += type(e).__name__ == "RoundRevealed"
        if rs.is_terminal(state):
            batch.append(("SecretRevealed", {"secret": secret.hex()}, _meta(n, None, None)))
            game.finished = True
        game.appends.append(batch)
        version += len(batch)
        game.seen[version] = {s: rs.view(state, s) for s in range(players)}
    assert game.finished or stop_after_rounds is not None, "game did not finish"
    return game


def write(store: EventStore, game: Game) -> None:
    """Append the game to the store, one append per command as the API does."""
    version = 0
    for batch in game.appends:
        result = store.append(game.game_id, version,
                              [NewEvent(t, d, m) for t, d, m in batch], command_id=batch[0][2]["command_id"])
        version = result.version
