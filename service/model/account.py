"""A player's own stream: registration, handle, tokens and vacations, folded into an Account.

Events (stream kind ``player``): ``PlayerRegistered {name, token_sha256, handle?, bot?}``,
``HandleChanged {handle}``, ``LocaleChosen {locale}``, ``TokenIssued {token_id, token_sha256, label}``,
``TokenRevoked {token_id}``, ``VacationStarted {from, until, days}``,
``VacationEnded {at, days_charged}``, ``SignInCodeIssued {code_id, code_sha256, expires_at}``,
``SignInCodeUsed {code_id, token_id}`` (service/usecases/sessions.py). Each event's
read-model writes come from ``service.adapters.account_stream.effects``, applied by its append
and by a rebuild alike.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from service.model.game import moment

# The languages the web client speaks (its catalogs, service/http/web/static/i18n/) and a player
# may choose: BCP 47 tags, compared whatever their case.
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
    """A one-time code to sign in on another device (service/usecases/sessions.py)."""

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
    bot: bool = False  # registered as a bot's account (docs/ratings.md)

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
        return Account(stream_id, data["name"], data.get("handle"), at,
                       (Token(stream_id, "registration", at, data["token_sha256"]),), bot=bool(data.get("bot")))
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


def fold(records: Iterable[Any]) -> tuple[Account | None, int]:
    acct, version = None, 0
    for r in records:
        acct = evolve(acct, r.type, r.data, str((r.metadata or {}).get("at") or ""), str(r.stream_id))
        version = r.version
    return acct, version
