"""A message (a key and its arguments, ``service.model.reach_messages.Message``) rendered in the
recipient's language and time zone: an e-mail's subject, text and HTML, or a push's title and
body. Dates and durations through Babel (``babel.dates``) in the player's locale.

Only what the arguments hold is rendered: the game's name and ruleset, the names of the
players awaited, the deadline, the links. The arguments come from public facts of a game
(its index row), never from a seat's view, so no card can be named here.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_datetime, format_time, format_timedelta

from service.adapters.rendering.catalogs import best, translations

Part = str | tuple[str, str]  # text, or (a link's text, its URL)


@dataclass(frozen=True, slots=True)
class RenderedMail:
    subject: str
    text: str
    html: str
    language: str  # the BCP 47 tag of Content-Language


@dataclass(frozen=True, slots=True)
class RenderedPush:
    title: str
    body: str
    url: str


@dataclass(frozen=True, slots=True)
class Reader:
    """Whom a message is rendered for: their locale (a choice of theirs, else English), their
    time zone (an IANA name), and the moment it is rendered (for "in 3 hours")."""

    locale: str | None
    time_zone: str
    now: datetime


class _Text:
    def __init__(self, reader: Reader) -> None:
        self.tag = best(reader.locale)
        self.babel = self.tag.replace("-", "_")
        self.zone = ZoneInfo(reader.time_zone)
        self.now = reader.now
        self._t = translations(self.tag)

    def __call__(self, key: str, **values: Any) -> str:
        text: str = self._t.gettext(key)
        return text % values if values else text

    def plural(self, key: str, count: int, **values: Any) -> str:
        text: str = self._t.ngettext(key, key + ".plural", count)
        return text % {"count": count, **values}

    def when(self, moment: datetime) -> str:
        """A moment on the reader's clock: the date in full, the time, the zone's name."""
        local = moment.astimezone(self.zone)
        zone = format_datetime(local, "zzzz", tzinfo=self.zone, locale=self.babel)
        return (f"{format_date(local, 'full', locale=self.babel)} "
                f"{format_time(local, 'short', tzinfo=self.zone, locale=self.babel)} ({zone})")

    def left(self, moment: datetime) -> str:
        return format_timedelta(moment - self.now, add_direction=True, threshold=1.5, locale=self.babel)

    def duration(self, seconds: int) -> str:
        """A reminder's lead as the player chose it, exactly: in the largest unit that divides it
        (90 minutes, not "2 hours"; 1 hour, not "60 minutes")."""
        unit = next(u for u in (86400, 3600, 60, 1) if seconds % u == 0)
        return format_timedelta(timedelta(seconds=seconds), threshold=max(1, seconds // unit), locale=self.babel)


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))


def _names(names: Sequence[str]) -> str:
    return ", ".join(names)


def _game_lines(t: _Text, game: Mapping[str, Any], awaiting: Sequence[str], deadline: str | None) -> list[str]:
    lines = [t("line.game", game=game["name"], ruleset=game["ruleset"])]
    if awaiting:
        lines.append(t("line.awaiting", players=_names(awaiting)))
    at = _moment(deadline)
    lines.append(t("line.no_deadline") if at is None else t("line.deadline", when=t.when(at), left=t.left(at)))
    return lines


def _over(t: _Text, args: Mapping[str, Any]) -> str:
    name = args["game"]["name"]
    if args.get("status") == "finished" and args.get("winners"):
        return t("game_over.won", game=name, winners=_names(args["winners"]))
    return t("game_over.ended", game=name, status=t(f"status.{args.get('status', 'finished')}"))


def _invited(t: _Text, args: Mapping[str, Any]) -> str:
    name = args["game"]["name"]
    return t("invited.by", game=name, by=args["by"]) if args.get("by") else t("invited.anonymous", game=name)


class Renderer:
    """Renders messages with links into the web client at ``public_url`` (no trailing slash)."""

    def __init__(self, public_url: str) -> None:
        self.public_url = public_url.rstrip("/")

    def game_url(self, game_id: str) -> str:
        return f"{self.public_url}/#/game/{game_id}"

    def mail(self, key: str, args: Mapping[str, Any], reader: Reader, *, secret: str | None = None,
             unsubscribe_url: str | None = None) -> RenderedMail:
        """An e-mail; ``secret``: the token or code it carries (verification, sign-in)."""
        t = _Text(reader)
        subject, blocks = self._mail_blocks(t, key, args, secret)
        footer: list[Part] = [(t("line.settings"), f"{self.public_url}/#/account")]
        if unsubscribe_url:
            footer.append((t("line.unsubscribe"), unsubscribe_url))
        return RenderedMail(subject, _text(blocks, footer, t("line.signature")),
                            _html(blocks, footer, t("line.signature"), t.tag, subject), t.tag)

    def _mail_blocks(self, t: _Text, key: str, args: Mapping[str, Any], secret: str | None
                     ) -> tuple[str, list[list[Part]]]:
        if key == "verify_email":
            url = f"{self.public_url}/verify-email?token={secret}"
            until = t.when(_moment(args["expires_at"]) or t.now)
            return t("verify_email.subject"), [[t("verify_email.intro", address=args["address"], when=until)],
                                                [(t("verify_email.action"), url)], [t("line.ignore")]]
        if key == "signin_code":
            url = f"{self.public_url}/signin?code={secret}"
            until = t.when(_moment(args["expires_at"]) or t.now)
            return t("signin_code.subject"), [[t("signin_code.intro", code=secret, when=until)],
                                               [(t("signin_code.action"), url)], [t("line.ignore")]]
        if key == "digest":
            games = args["games"]
            blocks: list[list[Part]] = [[t("digest.intro")]]
            for g in games:
                blocks.append([*(line for line in _game_lines(t, g["game"], g["awaiting"], g["deadline"])),
                               (t("line.open_game"), self.game_url(g["game"]["id"]))])
            return t.plural("digest.subject", len(games)), blocks
        game = args["game"]
        link: list[Part] = [(t("line.open_game"), self.game_url(game["id"]))]
        if key == "your_turn":
            return (t("your_turn.subject", game=game["name"]),
                    [[t("your_turn.intro", game=game["name"])],
                     list(_game_lines(t, game, args["awaiting"], args["deadline"])), link])
        if key == "reminder":
            left = t.duration(int(args["left_seconds"]))
            return (t("reminder.subject", game=game["name"], left=left),
                    [[t("reminder.intro", game=game["name"], left=left)],
                     list(_game_lines(t, game, args["awaiting"], args["deadline"])), link])
        if key == "game_over":
            return t("game_over.subject", game=game["name"]), [[_over(t, args)], link]
        if key == "invited":
            return (t("invited.subject", game=game["name"]),
                    [[_invited(t, args)], list(_game_lines(t, game, (), None))[:1], link])
        if key == "tournament_round":
            return (t("tournament_round.subject", game=game["name"], round=args["round"]),
                    [[t("tournament_round.intro", game=game["name"], round=args["round"])],
                     list(_game_lines(t, game, (), None))[:1], link])
        if key == "chat":  # the writer's own words, as they wrote them (escaped in the HTML)
            return (t("chat.subject", game=game["name"], by=args["by"]),
                    [[t("chat.intro", game=game["name"], by=args["by"])], [args["text"]], link])
        raise ValueError(f"no e-mail for a message {key!r}")

    def push(self, key: str, args: Mapping[str, Any], reader: Reader) -> RenderedPush:
        """A push's title and body (what the service worker shows) and the game it opens."""
        t = _Text(reader)
        game = args["game"]
        url = self.game_url(game["id"])
        if key in ("your_turn", "reminder"):
            lines = _game_lines(t, game, args["awaiting"], args["deadline"])[1:]
            title = (t("your_turn.push", game=game["name"]) if key == "your_turn"
                     else t("reminder.push", game=game["name"], left=t.duration(int(args["left_seconds"]))))
            return RenderedPush(title, "\n".join(lines), url)
        if key == "game_over":
            return RenderedPush(t("game_over.push", game=game["name"]), _over(t, args), url)
        if key == "invited":
            return RenderedPush(t("invited.push", game=game["name"]), _invited(t, args), url)
        if key == "tournament_round":
            return RenderedPush(t("tournament_round.push", round=args["round"]),
                                t("tournament_round.intro", game=game["name"], round=args["round"]), url)
        if key == "chat":
            return RenderedPush(t("chat.push", game=game["name"], by=args["by"]), args["text"], url)
        raise ValueError(f"no push for a message {key!r}")


def _text(blocks: Sequence[Sequence[Part]], footer: Sequence[Part], signature: str) -> str:
    """The plain text: a paragraph per block, a link as "its text: its URL"; then the footer."""
    def line(p: Part) -> str:
        return p if isinstance(p, str) else f"{p[0]}: {p[1]}"

    paragraphs = ["\n".join(line(p) for p in block) for block in blocks]
    return "\n\n".join([*paragraphs, "--", "\n".join(line(p) for p in footer), signature]) + "\n"


def _html(blocks: Sequence[Sequence[Part]], footer: Sequence[Part], signature: str, lang: str, title: str) -> str:
    """The HTML: the same paragraphs, every argument escaped, links as anchors."""
    e = html.escape

    def part(p: Part) -> str:
        return e(p) if isinstance(p, str) else f'<a href="{e(p[1], quote=True)}">{e(p[0])}</a>'

    body = ["<p>" + "<br>\n".join(part(p) for p in block) + "</p>" for block in blocks]
    body += ["<hr>", "<p>" + " · ".join(part(p) for p in footer) + "</p>", f"<p>{e(signature)}</p>"]
    return (f'<!doctype html>\n<html lang="{e(lang)}"><head><meta charset="utf-8"><title>{e(title)}</title></head>'
            f'<body>\n{chr(10).join(body)}\n</body></html>\n')
