"""What a caller sees of a game: its public summary, a seat's view, events as a seat may see them.

Every card a seat may not know is removed here by the ruleset's own ``view`` and ``redact``.
Nothing here does I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import codec, rules
from domain.messages import TurnTimedOut
from domain.ruleset import Ruleset
from service.model.clock import seat_deadlines, vacation_until
from service.model.game import SERVICE_EVENTS, Game, moment, unreadable
from service.model.caches import per_object
from service.model.seating import ranking


@per_object
def deadline_out(game: Game) -> dict[str, Any] | None:
    """The public deadline: when the first of the current wait's clocks runs out, what kind
    of wait it ends, whose turns time out, and each awaited seat's own deadline (``None``:
    a game without a clock)."""
    d = game.deadline
    if d is None or game.status != "active":
        return None
    per_seat = seat_deadlines(game)
    times = [s["at"] for s in per_seat if s["at"] is not None]
    if not times:
        return None
    seats = sorted({c.seat for c in d.commands if isinstance(c, TurnTimedOut)})
    return {"kind": d.kind, "at": min(times, key=moment), "since": d.since, "seats": seats, "per_seat": per_seat}


def public_event(ruleset: Ruleset, type_: str, data: Mapping[str, Any], seat: int | None,
                 typed: Any = None) -> dict[str, Any] | None:
    """The fields of a stored event this seat may see, or ``None`` if it sees nothing of it.
    ``typed`` is the ruleset's event object when the caller still holds it (spares a rebuild)."""
    if type_ in SERVICE_EVENTS:
        return dict(data)  # service events are public (the secret only once revealed)
    if typed is None:
        typed = codec.build(ruleset.event_types[type_], data)
    shown = ruleset.redact(typed, seat)
    if shown is None:
        return None
    out = {k: v for k, v in shown.items() if k != "type"}
    rule = out.get("rule")
    if isinstance(rule, str) and rule.startswith("RULES"):
        # stored events name the rule by a section of a specification that is not part of
        # this repository (the audit re-decides them, so the stored text stays): clients get
        # the page of the game's rules instead
        out["rule"] = f"docs/rules/{ruleset.name}.md"
    return out


def present_record(ruleset: Ruleset, rec: Any, seat: int | None) -> dict[str, Any] | None:
    """A stored event as this seat may see it (``None``: nothing of it)."""
    try:
        data = public_event(ruleset, rec.type, rec.data, seat, getattr(rec, "typed", None))
    except Exception as exc:  # noqa: BLE001 - whatever it is, the event is the cause
        raise unreadable(rec, exc) from exc
    if data is None:
        return None
    meta = rec.metadata or {}
    out = {"version": rec.version, "type": rec.type, "actor": meta.get("actor"), "at": meta.get("at"), "data": data}
    if meta.get("bot") is not None:  # a server bot played the actor's seat (after a vote)
        out["bot"] = meta["bot"]
    return out


def seats_public(game: Game) -> list[dict[str, Any]]:
    """Who sits where, how each seat is played ("playing", "resigned", "bot"; "empty"),
    whom a free seat is kept for, and until when a seat's player is (or was last) on vacation."""
    out = []
    for i, s in enumerate(game.seats):
        kept = game.reservation(i)
        out.append({"seat": i, "player_id": s.player_id if s else None, "name": s.name if s else None,
                    "entropy": s.entropy if s else None, "status": game.seat_status(i),
                    "reserved_for": {"player_id": kept.player_id, "name": kept.name} if kept else None,
                    "timeouts_in_row": game.timeouts_of(i), "vacation_until": vacation_until(game, i)})
    return out


def lifecycle_out(game: Game) -> dict[str, Any]:
    """What the service adds to the rules' facts: visibility, clock, result, votes and links."""
    winners = game.winners()
    return {"visibility": game.visibility,
            "time_control": game.time_control.to_json() if game.time_control else None,
            "winners": list(winners) if winners is not None else None,
            "ranking": ranking(game) if game.status == "finished" else None,
            "votes": [{"seat": v.seat, "voter": v.voter, "kind": v.kind} for v in game.votes],
            "timeouts_before_vote": game.timeouts_before_vote,
            "rematch_of": game.rematch_of, "next_game": game.next_game}


def summary(game: Game, version: int, head: bytes, timeouts: object = None) -> dict[str, Any]:
    """The public summary of a game (``GET /v1/games/{id}``). ``timeouts`` is not read: each
    game carries its own time control (kept for the callers that still pass the settings)."""
    rs = rules.get(game.ruleset)
    status = game.status
    facts: dict[str, Any] = {"round": None, "phase": None, "turn": None, "dealer": None, "scores": None}
    awaiting: list[int] = []
    if game.rules is not None:
        facts.update(rs.summary(game.rules))
        awaiting = list(rs.awaiting(game.rules)) if status == "active" else []
    return {
        "id": game.id, "ruleset": game.ruleset, "name": game.name, "options": game.options,
        "status": status, "seats": seats_public(game), "creator": game.creator,
        "round": facts.get("round"), "phase": facts.get("phase"), "turn": facts.get("turn"),
        "dealer": facts.get("dealer"), "scores": list(facts["scores"]) if facts.get("scores") is not None else None,
        "awaiting": awaiting, "secret_commitment": game.secret_commitment, "secret": game.secret,
        "version": version, "chain_head": head.hex(), "updated_at": game.updated_at,
        "deadline": deadline_out(game), **lifecycle_out(game),
    }


def view(game: Game, version: int, head: bytes, seat: int | None, timeouts: object = None) -> dict[str, Any]:
    """A seat's view (or the spectator's, ``seat=None``) with its legal actions: none for a
    seat the server plays (resigned, or a bot's until its player takes it back)."""
    rs = rules.get(game.ruleset)
    status = game.status
    table = None
    legal: list[Any] = []
    awaiting: list[int] = []
    if game.rules is not None:
        table = rs.view(game.rules, seat)
        if status == "active":
            awaiting = list(rs.awaiting(game.rules))
            if seat is not None and game.seat_status(seat) == "playing":
                legal = rs.legal_actions(game.rules, seat)
    return {"game_id": game.id, "ruleset": game.ruleset, "status": status, "seat": seat,
            "version": version, "chain_head": head.hex(), "awaiting": awaiting,
            "legal_actions": legal, "seats": seats_public(game), "table": table,
            "deadline": deadline_out(game)}
