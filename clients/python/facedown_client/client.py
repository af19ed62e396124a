"""``Client``: every call of the facedown API, with retries that are safe to make.

Every POST carries an ``Idempotency-Key`` (one per call, the same on each retry), so a call
retried after a lost connection, a 429 or a 503 changes the game once. Retries wait what
``Retry-After`` says, else a short exponential back-off.
"""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import jsonpatch
import requests

from facedown_client.checkpoints import Checkpoints, cosigned_by, hashes
from facedown_client.errors import FacedownError, ProblemError
from facedown_client.models import (
    CommandResult, Event, Game, GameListItem, Notification, Player, View,
)
from facedown_client.signed_notes import VerifierKey

RETRY_STATUSES = frozenset({429, 503})
#: a connection that broke before the answer was whole: refused, reset, or cut off in the
#: middle of the body (a server killed while answering); retried with the same key
_BROKEN = (requests.ConnectionError, requests.exceptions.ChunkedEncodingError)


class Client:
    """A facedown server at ``base_url``, as the player whose ``token`` this is (if any)."""

    def __init__(self, base_url: str, token: str | None = None, *, retries: int = 5, timeout: float = 30.0,
                 session: requests.Session | None = None, log_key: str | None = None,
                 checkpoints: Checkpoints | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        # the server's log key (given, else trusted on first use) and the last checkpoint seen
        # of each game: every command's answer is checked against them (facedown_client.checkpoints)
        self.checkpoints = checkpoints or Checkpoints(log_key)
        self.token = token
        self.retries = retries
        self.timeout = timeout
        self.http = session or requests.Session()
        self.on_response: Any = None  # called with each requests.Response (the conformance kit checks them)

    # -------------------------------------------------------------- plumbing

    def request(self, method: str, path: str, body: Any = None, *, params: Mapping[str, Any] | None = None,
                headers: Mapping[str, str] | None = None, timeout: float | None = None,
                idempotent: bool | None = None) -> Any:
        """The JSON answer of one call (``None`` for 304), or :class:`ProblemError`."""
        h = {"Accept": "application/json, application/problem+json"}
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        if method == "POST" and idempotent is not False:
            h["Idempotency-Key"] = uuid.uuid4().hex
        h.update(headers or {})
        attempt = 0
        while True:
            try:
                r = self.http.request(method, self.base_url + path, json=body, params=params, headers=h,
                                      timeout=timeout or self.timeout)
            except _BROKEN as exc:
                if attempt >= self.retries:
                    raise FacedownError(f"{method} {path}: {exc}") from exc
                time.sleep(_backoff(attempt))
                attempt += 1
                continue
            if self.on_response is not None:
                self.on_response(r)
            if r.status_code in RETRY_STATUSES and attempt < self.retries:
                time.sleep(_retry_after(r, attempt))
                attempt += 1
                continue
            return _answer(r)

    def _get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, params={k: v for k, v in params.items() if v is not None} or None)

    # -------------------------------------------------------------- players, rulesets, games

    def register(self, name: str, bot: bool = False) -> Player:
        """A new player (``bot``: a bot's account, shown as one, its games unrated by default);
        this client then acts as that player."""
        body: dict[str, Any] = {"name": name, "bot": True} if bot else {"name": name}
        player = Player.from_json(self.request("POST", "/v1/players", body))
        self.token = player.token
        return player

    def ratings(self, ruleset: str, cursor: str | None = None, limit: int | None = None) -> dict[str, Any]:
        """A page of a ruleset's leaderboard, best first (``next_cursor`` for the next)."""
        return self._get(f"/v1/ratings/{ruleset}", cursor=cursor, limit=limit)

    def as_player(self, token: str) -> Client:
        """Another client on the same server, acting with ``token``."""
        return Client(self.base_url, token, retries=self.retries, timeout=self.timeout, checkpoints=self.checkpoints)

    def rulesets(self) -> list[dict[str, Any]]:
        """Every ruleset with its options (each with the JSON Schema of its values) and commands."""
        return list(self._get("/v1/rulesets")["rulesets"])

    def create_game(self, ruleset: str, seats: int, options: Mapping[str, Any] | None = None, **kw: Any) -> Game:
        """A new game (``name``, ``take_seat``, ``entropy`` as keywords)."""
        body = {"ruleset": ruleset, "seats": seats, "options": dict(options or {}), **kw}
        return Game.from_json(self._checked(self.request("POST", "/v1/games", body)))

    def join(self, game_id: str, entropy: str | None = None) -> Game:
        """Take the lowest free seat; the game as it is after the join."""
        body = {} if entropy is None else {"entropy": entropy}
        return Game.from_json(self._checked(self.request("POST", f"/v1/games/{game_id}/join", body)["game"]))

    def game(self, game_id: str) -> Game:
        return Game.from_json(self._get(f"/v1/games/{game_id}"))

    def games(self, status: str | None = None, limit: int | None = None) -> list[GameListItem]:
        return [GameListItem.from_json(g) for g in self._get("/v1/games", status=status, limit=limit)["games"]]

    def my_games(self, **filters: Any) -> list[GameListItem]:
        """Every game of this player that matches ``filters`` (``status``, ``ruleset``,
        ``may_act=True``), those it may act in first: page after page (``limit`` a page)
        until the server's ``next_cursor`` ends, however many games there are."""
        query = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in filters.items()}
        games: list[GameListItem] = []
        cursor = None
        while True:
            page = self._get("/v1/me/games", **query, cursor=cursor)
            games += [GameListItem.from_json(g) for g in page["games"]]
            cursor = page.get("next_cursor")
            if not cursor:
                return games

    # -------------------------------------------------------------- tournaments

    def create_tournament(self, name: str, ruleset: str, format: str, seats_per_table: int, max_players: int,
                          **kw: Any) -> dict[str, Any]:
        """A new tournament (``format``: ``swiss`` or ``round_robin``; ``rounds``, ``options``,
        ``time_control``, ``duplicate``, ``starts_at``, ``join`` as keywords); the creator joins
        it unless ``join=False``."""
        body = {"name": name, "ruleset": ruleset, "format": format, "seats_per_table": seats_per_table,
                "max_players": max_players, **kw}
        return dict(self.request("POST", "/v1/tournaments", body))

    def tournaments(self, status: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """Tournaments, running and open ones first (``status`` keeps one kind)."""
        return list(self._get("/v1/tournaments", status=status, limit=limit)["tournaments"])

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        """A tournament: ``players``, ``rounds`` (each with its ``tables``, each a game), ``standings``
        and, for a duplicate one, ``boards`` (each round's commitment, its seed once over)."""
        return dict(self._get(f"/v1/tournaments/{tournament_id}"))

    def join_tournament(self, tournament_id: str) -> dict[str, Any]:
        return dict(self.request("POST", f"/v1/tournaments/{tournament_id}/join"))

    def leave_tournament(self, tournament_id: str) -> dict[str, Any]:
        return dict(self.request("POST", f"/v1/tournaments/{tournament_id}/leave"))

    def start_tournament(self, tournament_id: str) -> dict[str, Any]:
        """Start it now (its creator only): its first round's tables are dealt."""
        return dict(self.request("POST", f"/v1/tournaments/{tournament_id}/start"))

    # -------------------------------------------------------------- play

    def view(self, game_id: str) -> View:
        """This player's view of the game, with its ``legal_actions``."""
        return View.from_json(self._get(f"/v1/games/{game_id}/view"))

    def send(self, game_id: str, command: Any, *, if_match: int | None = None,
             held: View | None = None) -> CommandResult:
        """Send one command: a dict as ``legal_actions`` lists it (an entry's ``choices`` are
        ignored by the server) or one its choices make, or a command from
        :mod:`facedown_client.commands`.

        With ``held``, the view this player holds: the command applies only to that version
        (``If-Match``), and the server answers only what changed in the view
        (``Prefer: return=minimal``: a JSON Patch, a third of the whole view's bytes or less),
        which is applied to ``held``; the result's ``view`` is whole either way."""
        body = command.to_json() if hasattr(command, "to_json") else dict(command)
        if held is not None:
            if if_match is not None and if_match != held.version:
                raise ValueError(f"if_match={if_match} is not the held view's version {held.version}")
            if_match = held.version
        headers = {"If-Match": f'"{if_match}"'} if if_match is not None else {}
        if held is not None:
            headers["Prefer"] = "return=minimal"
        # the server sends the consistency proof from the checkpoint this client last saw
        seen = self.checkpoints.size(game_id)
        query = f"?proof_from={seen}" if seen else ""
        answer = self.request("POST", f"/v1/games/{game_id}/commands{query}", body, headers=headers)
        if answer.get("checkpoint"):
            self.check_checkpoint(game_id, answer["checkpoint"], answer.get("consistency"))
        if "view" not in answer and held is not None and "view_patch" in answer:
            # patched on a copy (the held view stays as it was): a JSON round trip copies a
            # view several times faster than the deep copy jsonpatch would make
            copy = json.loads(json.dumps(held.raw))
            answer = {**answer, "view": jsonpatch.apply_patch(copy, answer["view_patch"], in_place=True)}
        elif "view" not in answer:  # a server that answered neither: read the view
            answer = {**answer, "view": self._get(f"/v1/games/{game_id}/view")}
        return CommandResult.from_json(answer)

    # -------------------------------------------------------------- checkpoints (docs/fairness.md)

    def log_key(self) -> str:
        """The server's log key as a verifier key: the one this client keeps (given, or the
        server's the first time it was asked: trust on first use)."""
        if self.checkpoints.key is None:
            self.checkpoints.trust(self._get("/v1/log/key")["vkey"])
        assert self.checkpoints.key is not None
        return self.checkpoints.key.text()

    def _text(self, path: str) -> str:
        r = self.http.get(self.base_url + path, headers={"Accept": "text/plain, application/problem+json"},
                          timeout=self.timeout)
        if r.status_code >= 400:
            _answer(r)
        return r.content.decode("utf-8")

    def _consistency(self, game_id: str, first: int, second: int) -> list[bytes]:
        return hashes(self._get(f"/v1/games/{game_id}/proof/consistency", **{"from": first, "to": second}))

    def check_checkpoint(self, game_id: str, note: str, proof: Any = None) -> Any:
        """Check a checkpoint of the game (signature, and consistency with the last one seen);
        :class:`facedown_client.checkpoints.ForkError` if the server showed another history.
        ``proof``: a command answer's ``consistency`` ({size, hashes}), used when it proves
        from the size last seen (else the proof is asked of the server)."""
        self.log_key()

        def prove(gid: str, first: int, second: int) -> list[bytes]:
            if proof is not None and proof.get("size") == first:
                return hashes(proof)  # checked like any proof: a wrong one is a fork
            return self._consistency(gid, first, second)

        return self.checkpoints.check(game_id, note, prove)

    def _checked(self, game: Any) -> Any:
        """A game in the answer to a change of it, its checkpoint checked (when it has one)."""
        if isinstance(game, dict) and game.get("checkpoint"):
            self.check_checkpoint(str(game["id"]), game["checkpoint"])
        return game

    def log_checkpoint(self, witnesses: Sequence[str] = (), quorum: int | None = None) -> Any:
        """The checkpoint of the server's log of finished games, signed by the log key and
        cosigned by at least ``quorum`` (default: all) of these witnesses' verifier keys."""
        log = VerifierKey.parse(self.log_key())
        keys = [VerifierKey.parse(w) for w in witnesses]
        return cosigned_by(self._text("/v1/log/checkpoint"), log, keys, len(keys) if quorum is None else quorum)

    def checkpoint(self, game_id: str) -> Any:
        """The game's latest checkpoint, checked (see :meth:`check_checkpoint`)."""
        return self.check_checkpoint(game_id, self._text(f"/v1/games/{game_id}/checkpoint"))

    def events(self, game_id: str, after: int = 0, *, wait: int = 30, stream: bool = False,
               follow: bool = True) -> Iterator[Event]:
        """The game's events after version ``after`` as this player may see them.

        Long-polls (``wait`` seconds a call) or, with ``stream=True``, reads the Server-Sent
        Events stream and reconnects from the last id. With ``follow=False`` it stops when no
        more events are ready; else it ends once the game is over (its secret revealed).
        """
        if stream:
            yield from self._event_stream(game_id, after, follow)
            return
        while True:
            page = self._get(f"/v1/games/{game_id}/events", after=after, wait=wait if follow else 0)
            for e in page["events"]:
                event = Event.from_json(e)
                yield event
                if event.type == "SecretRevealed" and follow:
                    return
            after = page["next_after"]
            if not page["events"] and not follow:
                return

    def _event_stream(self, game_id: str, after: int, follow: bool) -> Iterator[Event]:
        while True:
            got = False
            for message in self._sse(f"/v1/games/{game_id}/events/stream", {"after": after}):
                event = Event.from_json(json.loads(message["data"]))
                after, got = event.version, True
                yield event
                if event.type == "SecretRevealed":
                    return
            if not follow and not got:
                return

    def notifications(self, after: int = 0, *, wait: int = 30, stream: bool = False) -> Iterator[Notification]:
        """The account's notifications after ``after``, forever: long-polls
        ``/v1/me/notifications``, or with ``stream=True`` reads ``/v1/me/stream`` (whose first
        message, kind ``inbox``, lists the games that wait for this player)."""
        if stream:
            while True:
                headers = {"Last-Event-ID": str(after)} if after else None
                for m in self._sse("/v1/me/stream", None, headers):
                    payload = json.loads(m["data"])
                    if m.get("event") == "inbox":
                        yield Notification(int(payload.get("seq", after)), "inbox", None, None, [], None, payload)
                        continue
                    note = Notification.from_json(payload)
                    after = max(after, note.seq)
                    yield note
        while True:
            page = self._get("/v1/me/notifications", after=after, wait=wait)
            for n in page["notifications"]:
                yield Notification.from_json(n)
            after = page["next_after"]

    def _sse(self, path: str, params: Mapping[str, Any] | None,
             headers: Mapping[str, str] | None = None) -> Iterator[dict[str, str]]:
        """The messages of one Server-Sent Events response (``id``, ``event``, ``data``)."""
        h = {"Accept": "text/event-stream", **(headers or {})}
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        try:
            r = self.http.get(self.base_url + path, params=params, headers=h, stream=True, timeout=(10, 60))
        except requests.ConnectionError:
            time.sleep(1)
            return
        with r:
            if r.status_code != 200:
                _answer(r)
            message: dict[str, str] = {}
            try:
                for line in r.iter_lines(decode_unicode=True):
                    if not line:
                        if "data" in message:
                            yield message
                        message = {}
                    elif not line.startswith(":"):
                        key, _, value = line.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        message[key] = message[key] + "\n" + value if key == "data" and key in message else value
            except requests.RequestException:
                return  # the stream ended: the caller reconnects after the last id


def _answer(r: requests.Response) -> Any:
    if r.status_code == 304:
        return None
    ctype = r.headers.get("Content-Type", "")
    body = r.json() if "json" in ctype and r.content else None
    if r.status_code >= 400:
        raise ProblemError(r.status_code, body if isinstance(body, dict) else {"detail": r.text[:500]})
    return body


def _backoff(attempt: int) -> float:
    return min(0.25 * 2**attempt, 8.0)


def _retry_after(r: requests.Response, attempt: int) -> float:
    try:
        return max(0.0, min(float(r.headers.get("Retry-After", "")), 60.0))
    except ValueError:
        return _backoff(attempt)
