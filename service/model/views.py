"""What a caller sees of a game: its public summary, a seat's view, events as a seat may see
them, and the row a list of games shows (the game index, written with every append).

Every card a seat may not know is removed here by the ruleset's own ``view`` and ``redact``.
Nothing here does I/O.
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from domain import codec, rules
from domain.messages import TurnTimedOut
from domain.ruleset import Ruleset
from service.model.clock import next_due, seat_deadlines, vacation_until
from service.model.game import SERVICE_EVENTS, Game, moment, unreadable
from service.model.caches import SIZE, Lru, per_object
from service.model.ratings import is_rated
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
                    "timeouts_in_row": game.timeouts_of(i), "vacation_until": vacation_until(game, i),
                    "bot": bool(s and s.bot_account)})
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
            "rematch_of": game.rematch_of, "next_game": game.next_game, "rated": is_rated(game),
            "tournament": tournament_out(game)}


def tournament_out(game: Game) -> dict[str, Any] | None:
    """The tournament a table belongs to (docs/tournaments.md), or None."""
    if game.tournament is None:
        return None
    tid, n, table = game.tournament
    return {"id": tid, "round": n, "table": table, "board_commitment": game.board}


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


#: (id of the game object, seat, version) -> (the game, its view): the view a seat read or was
#: answered last is the base of the patch its next command's answer carries (view_patch.py),
#: and the next read of the same version is answered without working it out again
_VIEWS = Lru(4 * SIZE)


def view(game: Game, version: int, head: bytes, seat: int | None, timeouts: object = None) -> dict[str, Any]:
    """A seat's view (or the spectator's, ``seat=None``) with its legal actions: none for a
    seat the server plays (resigned, or a bot's until its player takes it back). Remembered
    per game object and seat, and shared: callers never change it."""
    key = (id(game), seat, version)
    hit = _VIEWS.get_(key)
    if hit is not None and hit[0] is game:
        return hit[1]  # type: ignore[no-any-return]
    out = _view(game, version, head, seat)
    _VIEWS.put(key, (game, out))
    return out


def _view(game: Game, version: int, head: bytes, seat: int | None) -> dict[str, Any]:
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
            "deadline": deadline_out(game), "tournament": tournament_out(game)}


# ------------------------------------------------------------------ the game index's row

_PER_COMMAND = frozenset({"entropy", "timeouts_in_row"})  # seat fields a list does not show


def awaiting(game: Game) -> list[int]:
    return list(rules.get(game.ruleset).awaiting(game.rules)) if game.status == "active" else []


def may_act(game: Game, waiting: Sequence[int]) -> list[int]:
    """Seats with any legal action now, a claim included (``legal_actions`` depends only on
    public facts and the seat's own knowledge), but for standing orders; never a seat the
    server plays."""
    if game.status != "active":
        return []
    rs = rules.get(game.ruleset)
    # a standing order may be placed or cancelled at any time: it is no move to make now
    return [s for s in game.playing() if s in waiting or rs.may_move(game.rules, s)]


def _uuid(value: str | None) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(value)


def listed(game: Game, version: int, full: bool = True) -> dict[str, Any]:
    """The game's row in the index (``events.game_index.IndexRow``'s fields): what lists show
    and the sweep reads. ``full=False`` leaves out the seats, which a command never changes."""
    d = game.deadline
    facts = rules.get(game.ruleset).summary(game.rules) if game.rules is not None else {}
    waiting = awaiting(game)
    winners = game.winners()
    scores = facts.get("scores")
    # what only service events change (a command's lighter update leaves the seats as they are)
    seats = [{k: v for k, v in s.items() if k not in _PER_COMMAND} for s in seats_public(game)] if full else []
    return {"id": uuid.UUID(game.id), "ruleset": game.ruleset, "name": game.name, "status": game.status,
            "seats": seats, "awaiting": waiting, "updated_at": moment(game.updated_at), "version": version,
            "deadline_kind": d.kind if d else None, "deadline_since": moment(d.since) if d else None,
            "visibility": game.visibility, "creator": _uuid(game.creator),
            "free_seats": sum(1 for s in seats if s["player_id"] is None and not s["reserved_for"]),
            "round": facts.get("round"), "scores": list(scores) if scores is not None else None,
            "winners": list(winners) if winners is not None else None, "may_act": may_act(game, waiting),
            "deadline_due": next_due(game), "deadline": deadline_out(game),
            "time_control": game.time_control.to_json() if game.time_control else None,
            "rematch_of": _uuid(game.rematch_of), "next_game": _uuid(game.next_game)}
