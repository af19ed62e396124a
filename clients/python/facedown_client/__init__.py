"""facedown-client: play facedown's card games through its REST API.

    from facedown_client import Client
    me = Client("http://127.0.0.1:8080")
    me.register("ann")
    game = me.create_game("least-score", seats=2)

See the README for a whole bot in twenty lines.
"""
from __future__ import annotations

from facedown_client import choices, commands
from facedown_client.bot import Bot, play_seats, play_turns, random_policy
from facedown_client.checkpoints import CheckpointError, Checkpoints, ForkError
from facedown_client.client import Client
from facedown_client.errors import FacedownError, ProblemError
from facedown_client.models import (
    Call, CommandResult, Deadline, Event, Game, GameListItem, Held, Notification, Player, Power, Seat, SlotCard,
    Table, TableSeat, View, Window,
)

__all__ = [
    "Bot", "Call", "CheckpointError", "Checkpoints", "Client", "CommandResult", "Deadline", "Event", "FacedownError",
    "ForkError", "Game", "GameListItem", "Held", "Notification", "Player", "Power", "ProblemError", "Seat",
    "SlotCard", "Table", "TableSeat", "View", "Window", "choices", "commands", "play_seats", "play_turns",
    "random_policy",
]
__version__ = "0.1.0"
