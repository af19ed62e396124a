"""Play a whole game of Least Score with the client openapi-python-client generated from openapi.yaml.

Run as ``python play_generated.py BASE_URL`` with the generated package importable as ``facedown_api``.
"""
from __future__ import annotations

import random
import sys

from facedown_api import AuthenticatedClient, Client
from facedown_api.api.games import create_game, get_game, join_game
from facedown_api.api.play import get_events, get_view, send_command
from facedown_api.api.players import create_player
from facedown_api.models import CommandResult, Events, Game, GameIn, JoinIn, Player, PlayerIn, View


def main(base: str) -> None:
    anon = Client(base_url=base)
    players = [create_player.sync(client=anon, body=PlayerIn(name=n)) for n in ("gen-ann", "gen-bob")]
    assert all(isinstance(p, Player) for p in players), players
    seats = [AuthenticatedClient(base_url=base, token=p.token) for p in players]  # type: ignore[union-attr]
    game = create_game.sync(client=seats[0], body=GameIn.from_dict(
        {"ruleset": "least-score", "seats": 2, "options": {"elimination_threshold": 25}}))
    assert isinstance(game, Game), game
    joined = join_game.sync(id=game.id, client=seats[1], body=JoinIn())
    assert not hasattr(joined, "status") or getattr(joined, "status", 200) != 404, joined
    rng, sent = random.Random(5), 0
    while True:
        summary = get_game.sync(id=game.id, client=seats[0])
        assert isinstance(summary, Game), summary
        if summary.status == "finished":
            break
        for client in seats:
            view = get_view.sync(id=game.id, client=client)
            assert isinstance(view, View), view
            if view.seat in view.awaiting and view.legal_actions:
                result = send_command.sync(id=game.id, client=client, body=rng.choice(view.legal_actions))
                assert isinstance(result, CommandResult), result
                sent += 1
    events = get_events.sync(id=game.id, client=seats[0], limit=1000)
    assert isinstance(events, Events) and events.events, events
    # the game's options come back as its ruleset's class, with the value it was opened with
    opened = events.events[0].data
    assert type(opened).__name__ == "LeastScoreGameOpenedData", opened
    assert opened.options.elimination_threshold == 25, opened.options
    print(f"finished after {sent} commands, {len(events.events)} events, scores {summary.scores}")


if __name__ == "__main__":
    main(sys.argv[1])
