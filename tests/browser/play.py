"""Whole games through the page: at each step every page is brought up to the game's version,
checked (its cards against its view), and one player sends one of the actions its page offers.

The choice is a seeded random pick among the page's legal actions, steered so that each game
has what the test must see (a peek, a power, a snap or a match, the call that ends a round)
and stays short."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from domain.choices import command, commands, count
from tests.browser.driver import Seat

POWERS = {"corte": {"5", "6", "Q", "K"}, "cuatro-cartas": {"J", "Q", "K"}, "pedro": {"5", "6"}}
POWER_MOVES = {"PeekOwn", "PeekRival", "BlindSwap", "KingLook", "UsePower5", "UsePower6", "Look"}
PEEKS = {"ChoosePeek", "PeekBottom"}
CALLS = {"CallCorte", "CallPedro", "Close", "Declare"}
CLAIMS = {"SnapOwn", "SnapRival", "Match", "MatchRival", "MatchGroup"}
ORDERS = {"PlaceOrder", "CancelOrder"}


@dataclass
class Seen:
    """What a game has shown so far (the test asserts on it)."""

    types: list[str] = field(default_factory=list)
    moves: int = 0
    dragged: bool = False
    formed: list[str] = field(default_factory=list)  # the commands sent by filling in a form
    calls_from: int = 0  # no call that ends the round before this many moves
    by: Counter[str] = field(default_factory=Counter)  # the moves of each seat, by its player's name

    def had(self, names: set[str]) -> bool:
        return any(t in names for t in self.types)


def _rank(card: str | None) -> str | None:
    return None if card is None else card[:-1]


def _known_match(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A claim on one of this seat's own cards that it knows has the window card's rank, while
    the window is still to be won: a snap on a won window is late and penalised whatever the
    card, and the card stays, so snapping it again and again would never end the game."""
    t = view["table"]
    if not t or not t.get("window") or t["window"]["won"]:
        return None
    want = _rank(t["window"]["card"])
    mine = next(p for p in t["players"] if p["seat"] == view["seat"])
    known = {c["slot"] for c in mine["cards"] if c["card"] and _rank(c["card"]) == want}
    return next((a for a in actions if a["type"] in ("SnapOwn", "Match") and a.get("slot") in known
                 and a.get("penalty_to", "new") == "new"), None)


def concrete(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands the entries stand for (an entry standing for very many: as it stands)."""
    return [c for a in listed for c in (commands(a) if count(a) <= 512 else [command(a)])]


def choose(ruleset: str, seat: Seat, view: dict[str, Any], actions: list[dict[str, Any]], seen: Seen,
           rng: random.Random, call_after: int) -> dict[str, Any] | None:
    """The action this seat takes now, or None (it waits)."""
    playable = [a for a in concrete(actions) if a["type"] not in ORDERS]
    if not playable:
        return None
    by = {}
    for a in playable:
        by.setdefault(a["type"], []).append(a)
    t = view["table"]
    awaited = view["seat"] in view["awaiting"]
    if "ChoosePeek" in by:
        return rng.choice(by["ChoosePeek"])
    known = _known_match(view, playable)
    if known is not None:
        return known
    claims = [a for a in playable if a["type"] in ("SnapOwn", "Match") and a.get("penalty_to", "new") == "new"]
    if claims and not seen.had(CLAIMS) and seen.moves >= 8 and not awaited:
        return rng.choice(claims)  # a claim at a guess: a wrong one is judged and punished as well
    if not awaited:
        return None
    if "Pass" in by:
        return by["Pass"][0]
    power = [a for a in playable if a["type"] in POWER_MOVES and (a["type"] != "Look" or a["targets"])]
    if power:
        return rng.choice(power)
    for decision in ("KingKeep", "NoSwap", "PeekBottom"):
        if decision in by:
            return by[decision][0]
    held = t and t.get("held") and t["held"]["card"]
    if held and t["turn"] == view["seat"]:
        fires = _rank(held) in POWERS.get(ruleset, set())
        discard = by.get("DiscardDrawn") or by.get("Release")
        discard = [a for a in discard or [] if not a.get("close")]
        keep = [a for a in by.get("Replace", []) + by.get("Keep", []) if not a.get("close") and not a.get("also_discard")]
        group = [a for a in by.get("Keep", []) if a.get("also_discard")]
        if group and not seen.formed:  # one blind multi-discard, its slots ticked in the form
            return rng.choice(group)
        if discard and (fires or not keep or rng.random() < 0.4):
            return discard[0]
        return rng.choice(keep)
    calls = [a for a in playable if a["type"] in CALLS]
    wanted = seen.had(POWER_MOVES) and (ruleset not in ("corte", "cuatro-cartas") or seen.had(CLAIMS))
    if calls and seen.moves >= seen.calls_from and (wanted or seen.moves >= call_after):
        return calls[0]
    if "Play" in by:
        return rng.choice(by["Play"])
    draws = [a for a in by.get("Draw", []) if a["source"] == "stock"] or by.get("Draw", [])
    if draws:
        return draws[0]
    rest = [a for a in playable if a["type"] not in CALLS and not a.get("close")] or playable
    return rng.choice(rest)


def play(seats: list[Seat], game_id: str, ruleset: str, seed: int, on_move: Any = None, call_after: int = 150,
         max_moves: int = 400, calls_from: int = 0) -> Seen:
    """Play the game to its end through the pages; returns what was played. ``calls_from``: no
    call before that many moves (what ``on_move`` checks mid-game is then sure to come)."""
    rng = random.Random(seed)
    seen = Seen(calls_from=calls_from)
    spanish = False
    while True:
        game = seats[0].api(f"/v1/games/{game_id}")
        if game["status"] != "active":
            return seen
        assert seen.moves < max_moves, (
            f"{ruleset}: not over after {max_moves} moves; the last 30: {seen.types[-30:]}; "
            f"round {game.get('round')}, awaiting {game.get('awaiting')}, version {game['version']}")
        spanish = game["options"].get("deck_profile") == "spanish50"
        picked = None
        for s in seats:
            s.sync(game_id)
        views = {s.name: s.api(f"/v1/games/{game_id}/view") for s in seats}
        for s in sorted(seats, key=lambda s: views[s.name]["seat"] not in game["awaiting"]):
            view = views[s.name]
            s.check_table(view, spanish)
            listed = view["legal_actions"]
            if picked is None:
                action = choose(ruleset, s, view, listed, seen, rng, call_after)
                if action is not None:
                    picked = (s, action)
        assert picked is not None, f"{ruleset}: nobody may act at version {game['version']}"
        s, action = picked
        drag = action["type"] in ("DiscardDrawn", "Replace", "Keep", "Release") and not s.dragged
        if s.send(action, game["version"], drag=drag, keyboard=seen.moves % 3 == 0):
            seen.formed.append(action["type"])
        seen.dragged = seen.dragged or s.dragged
        seen.types.append(action["type"])
        seen.moves += 1
        seen.by[s.name] += 1
        if on_move is not None:
            on_move(seen)
