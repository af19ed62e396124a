"""A player's own stream: registration, handle, tokens and vacations, folded into an Account.

Events (stream kind ``player``): ``PlayerRegistered {name, token_sha256, handle?}``,
``HandleChanged {handle}``, ``LocaleChosen {locale}``, ``TokenIssued {token_id, token_sha256, label}``,
``TokenRevoked {token_id}``, ``VacationStarted {from, until, days}``,
``VacationEnded {at, days_charged}``, ``SignInCodeIssued {code_id, code_sha256, expires_at}``,
``SignInCodeUsed {code_id, token_id}`` (service/sessions.py). Each event's read-model writes come from
:func:`effects`, applied by its append and by a rebuild alike.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from events import players
from events.errors import ConcurrencyError
from events.store import NewEvent
from service.clock import moment
from service.context import Api
from service.problems import Problem

MAX_TRIES = 5
# The languages the web client speaks (its catalogs, service/web/static/i18n/) and a player may
# choose: BCP 47 tags, compared whatever their case.
LOCALES = ("en", "es", "pt-BR", "pt-PT")


@dataclass(frozen=True, slots=True)
class Token:
    id: str
    label: str
    created_at: str
    digest: str
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class Vacation:
    start: str
    until: str
    days: int
    ended_at: str | None = None
    charged: int | None = None  # days charged when it ended early

    @property
    def cost(self) -> int:
        return self.days if self.charged is None else self.charged

    @property
    def end(self) -> str:
        return self.ended_at or self.until


@dataclass(frozen=True, slots=True)
class SignInCode:
    """A one-time code to sign in on another device (service/sessions.py)."""

    id: str
    expires_at: str
    used: bool = False


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    handle: str | None
    created_at: str
    tokens: tuple[Token, ...] = ()
    vacations: tuple[Vacation, ...] = ()
    codes: tuple[SignInCode, ...] = ()
    locale: str | None = None  # the player's own choice of language; None: the browser's

    def live_tokens(self) -> list[Token]:
        return [t for t in self.tokens if not t.revoked]

    def vacation_at(self, now: str) -> Vacation | None:
        """The vacation going on at ``now``, if any."""
        t = moment(now)
        last = self.vacations[-1] if self.vacations else None
        return last if last is not None and moment(last.start) <= t < moment(last.end) else None

    def days_used(self, year: int) -> int:
        return sum(v.cost for v in self.vacations if moment(v.start).year == year)


def evolve(acct: Account | None, type_: str, data: Any, at: str, stream_id: str) -> Account:
    if type_ == "PlayerRegistered":
        return Account(stream_id, data["name"], data.get("handle"), at, (Token(stream_id, "registration", at, data["token_sha256"]),))
    assert acct is not None, "a player's stream starts with PlayerRegistered"
    if type_ == "HandleChanged":
        return replace(acct, handle=data["handle"])
    if type_ == "LocaleChosen":
        return replace(acct, locale=data["locale"])
    if type_ == "TokenIssued":
        return replace(acct, tokens=(*acct.tokens, Token(data["token_id"], data["label"], at, data["token_sha256"])))
    if type_ == "TokenRevoked":
        return replace(acct, tokens=tuple(replace(t, revoked=True) if t.id == data["token_id"] else t
                                          for t in acct.tokens))
    if type_ == "VacationStarted":
        return replace(acct, vacations=(*acct.vacations, Vacation(data["from"], data["until"], int(data["days"]))))
    if type_ == "VacationEnded":
        last = replace(acct.vacations[-1], ended_at=data["at"], charged=int(data["days_charged"]))
        return replace(acct, vacations=(*acct.vacations[:-1], last))
    if type_ == "SignInCodeIssued":
        return replace(acct, codes=(*acct.codes, SignInCode(data["code_id"], data["expires_at"])))
    if type_ == "SignInCodeUsed":
        return replace(acct, codes=tuple(replace(c, used=True) if c.id == data["code_id"] else c
                                         for c in acct.codes))
    return acct  # a player event of another module (the lead's account events) changes nothing here


def effects(pid: uuid.UUID, type_: str, data: Any, at: str) -> list[players.Effect]:
    """The read-model writes of one player event (the same in its append and in a rebuild)."""
    when = moment(at) if at else None
    if type_ == "PlayerRegistered":
        return [players.player_effect(pid, data["name"], data["token_sha256"], data.get("handle"), when)]
    if type_ == "HandleChanged":
        return [players.handle_effect(pid, data["handle"])]
    if type_ == "TokenIssued":
        return [players.token_effect(uuid.UUID(data["token_id"]), pid, data["token_sha256"], data["label"], when)]
    if type_ == "TokenRevoked":
        assert when is not None
        return [players.revoke_effect(uuid.UUID(data["token_id"]), when)]
    if type_ == "VacationStarted":
        return [players.vacation_effect(pid, moment(data["from"]), moment(data["until"]))]
    if type_ == "VacationEnded":
        return [players.vacation_end_effect(pid, moment(data["at"]))]
    if type_ == "SignInCodeIssued":
        assert when is not None
        return [players.signin_code_effect(uuid.UUID(data["code_id"]), pid, data["code_sha256"], when,
                                           moment(data["expires_at"]))]
    if type_ == "SignInCodeUsed":
        assert when is not None
        return [players.signin_code_used_effect(uuid.UUID(data["code_id"]), when)]
    return []


def fold(records: Iterable[Any]) -> tuple[Account | None, int]:
    acct, version = None, 0
    for r in records:
        acct = evolve(acct, r.type, r.data, str((r.metadata or {}).get("at") or ""), str(r.stream_id))
        version = r.version
    return acct, version


def load(api: Api, pid: str) -> tuple[Account, int]:
    """A player's account at its stream's head (404 if there is none)."""
    try:
        sid = uuid.UUID(pid)
    except ValueError:
        raise Problem("not-found", "no such player") from None
    acct, version = fold(api.store.read(sid))
    if acct is None:
        raise Problem("not-found", "no such player")
    return acct, version


Decide = Callable[[Account], list[NewEvent]]


def update(api: Api, pid: str, decide: Decide) -> Account:
    """load → decide → append on the player's stream, version-checked and retried; each
    event's read-model rows are written in the same statement."""
    sid = uuid.UUID(pid)
    for _ in range(MAX_TRIES):
        acct, version = load(api, pid)
        events = decide(acct)
        if not events:
            return acct
        writes = [x for e in events for x in effects(sid, e.type, e.data, str(e.metadata.get("at")))]
        try:
            api.store.append(sid, version, events, kind="player", notify=False, effects=writes)
        except ConcurrencyError:
            continue
        for e in events:
            acct = evolve(acct, e.type, e.data, str(e.metadata.get("at")), pid)
        return acct
    raise Problem("conflict", "your account changed too often; try again")
