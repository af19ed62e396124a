"""Seats that play one game each, all at once, through the SDK: every seat reads its own view,
waits for news with a long-poll, and sends what its bot chooses, claims out of turn included.
Every command carries an ``Idempotency-Key``; some are sent twice at once with one key (two
connections), some again later, and each answer is kept to be held against the log."""
from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests

from domain import bots
from facedown_client import Client, FacedownError, ProblemError
from service.tools.check.harness import Ack, Statuses


@dataclass(frozen=True)
class Behaviour:
    """How a seat tries the server: shares of its commands sent twice at once with one key
    (``twins``) or again later (``replays``), and its chance of a blind claim on an open window."""

    twins: float = 0.0
    replays: float = 0.0
    blind: float = 0.0


@dataclass
class SeatRecord:
    acks: list[Ack] = field(default_factory=list)
    sent: set[tuple[str, str]] = field(default_factory=set)  # (player, key) of every command sent
    claims: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    twins: int = 0
    replays: int = 0
    # one key, two different answers, by kind (see ``differ``): "applied twice",
    # "refused though applied", "asked to retry"
    differing: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    unanswered: int = 0  # sent, and no answer came (the SDK gave up retrying)


@dataclass(frozen=True)
class _Answer:
    version: int | None  # None: refused
    status: int
    slug: str = ""


class SeatPlayer:
    """One player in one seat: its own token, and a second connection for the twin sends."""

    def __init__(self, base: str, statuses: Statuses, name: str, retries: int = 6) -> None:
        self.client = Client(base, retries=retries, timeout=60)
        self.client.on_response = statuses
        self.player = self.client.register(name)
        self.twin = self.client.as_player(self.player.token)
        self.twin.retries, self.twin.on_response = retries, statuses
        self.record = SeatRecord()

    def play(self, game: str, ruleset: str, behaviour: Behaviour, rng: random.Random, until: float,
             stop: threading.Event) -> None:
        """Play until the game ends, ``until`` (monotonic) passes or ``stop`` is set."""
        policy = bots.policy(ruleset, "greedy")
        replay: tuple[dict[str, Any], str, int] | None = None
        while time.monotonic() < until and not stop.is_set():
            try:
                view = self.client.view(game)
            except (FacedownError, requests.RequestException) as exc:
                self._error(exc)
                continue
            if replay is not None:
                self._replay(game, *replay)
                replay = None
            if view.status == "finished":
                return
            action = self._choose(view, policy, behaviour, rng)
            if action is None:
                self._wait(game, view.version)
                continue
            sent = self._send(game, action, behaviour.twins > rng.random())
            if sent is not None and behaviour.replays > rng.random():
                replay = sent

    def _choose(self, view: Any, policy: Any, behaviour: Behaviour, rng: random.Random) -> dict[str, Any] | None:
        actions = view.legal_actions
        if view.status != "active" or not actions:
            return None
        must = view.my_turn
        action = policy(view.raw["table"], actions, rng, must)
        if action is None and must:
            action = actions[rng.randrange(len(actions))]
        if action is None and behaviour.blind > rng.random():
            claims = [a for a in actions if "window_id" in a and a.get("type") != "Pass"]
            action = claims[rng.randrange(len(claims))] if claims else None
        return action  # type: ignore[no-any-return]

    def _wait(self, game: str, version: int) -> None:
        try:
            self.client.request("GET", f"/v1/games/{game}/events", params={"after": version, "wait": 2})
        except (FacedownError, requests.RequestException) as exc:
            self._error(exc)

    def _post(self, client: Client, game: str, action: dict[str, Any], key: str) -> _Answer | None:
        try:
            answer = client.request("POST", f"/v1/games/{game}/commands", action, headers={"Idempotency-Key": key})
        except ProblemError as exc:
            return _Answer(None, exc.status, exc.slug)
        except (FacedownError, requests.RequestException) as exc:
            self.record.unanswered += 1
            self._error(exc)
            return None
        return _Answer(int(answer["version"]), 200)

    def _send(self, game: str, action: dict[str, Any], twice: bool) -> tuple[dict[str, Any], str, int] | None:
        """Send ``action`` once (or twice at once with one key); the acknowledged (action, key, version)."""
        key = uuid.uuid4().hex
        rec = self.record
        rec.sent.add((self.player.id, key))
        if "window_id" in action:
            rec.claims += 1
        if twice:
            answers: list[_Answer | None] = [None, None]
            gate = threading.Barrier(2)

            def go(i: int, client: Client) -> None:
                gate.wait()
                answers[i] = self._post(client, game, action, key)

            threads = [threading.Thread(target=go, args=(i, c)) for i, c in enumerate((self.client, self.twin))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            rec.twins += 1
            a, b = answers
            answer = a if a is not None and a.version is not None else b
            if self._compare(key, a, b, "at once") == "asked to retry" and answer is not None:
                self._retried(game, action, key, answer)
        else:
            answer = self._post(self.client, game, action, key)
        if answer is None:
            return None
        if answer.version is None:
            rec.refused[answer.slug or str(answer.status)] += 1
            return None
        rec.acks.append(Ack(game, self.player.id, key, answer.version))
        return action, key, answer.version

    def _replay(self, game: str, action: dict[str, Any], key: str, version: int) -> None:
        """The same request again, later: the first answer's version, whatever happened since."""
        self.record.replays += 1
        again = self._post(self.client, game, action, key)
        self._compare(key, _Answer(version, 200), again, "later")

    def _retried(self, game: str, action: dict[str, Any], key: str, first: _Answer) -> None:
        """Do as a client asked to retry does: the same request again must get the first answer."""
        for _ in range(3):
            again = self._post(self.client, game, action, key)
            if differ(first, again) != "asked to retry":
                break
        kind = differ(first, again)
        if kind is not None:
            kind = "refused though applied" if kind == "asked to retry" else kind
            self.record.differing.setdefault(kind, []).append(f"key {key}: answered {first}, retried: {again}")

    def _compare(self, key: str, a: _Answer | None, b: _Answer | None, when: str) -> str | None:
        kind = differ(a, b)
        if kind is not None:
            self.record.differing.setdefault(kind, []).append(f"key {key}: answered {a} and {b} ({when})")
        return kind


#: refusals that ask the client to send the same request again (409 conflict: the game changed
#: too often while this request was decided; 429; 503)
RETRY = frozenset({"conflict", "429", "503"})


def differ(a: _Answer | None, b: _Answer | None) -> str | None:
    """How two answers to one key differ: ``applied twice`` (two acknowledgements of different
    versions), ``refused though applied`` (an acknowledgement and a final refusal), ``asked to
    retry`` (an acknowledgement and a refusal that asks for the request again: the first was
    still in flight, as a client sees it when its retry overtakes its first request); or None."""
    if a is None or b is None or (a.version, a.status, a.slug) == (b.version, b.status, b.slug):
        return None
    if a.version is not None and b.version is not None:
        return "applied twice"
    refused = b if a.version is not None else a
    if a.version is None and b.version is None:
        return None  # refused twice (by different reasons as the game moved): nothing applied
    return "asked to retry" if (refused.slug or str(refused.status)) in RETRY else "refused though applied"

    def _error(self, exc: Exception) -> None:
        if len(self.record.errors) < 20:
            self.record.errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
        time.sleep(0.2)


def seat_players(base: str, statuses: Statuses, ruleset: str, seats: int, options: dict[str, Any],
                 tag: str) -> tuple[str, list[SeatPlayer]]:
    """A new game of ``ruleset``, every seat taken by a new player of its own."""
    players = [SeatPlayer(base, statuses, f"{tag}-{s}") for s in range(seats)]
    game = players[0].client.create_game(ruleset, seats, options, name=tag).id
    for p in players[1:]:
        p.client.join(game)
    return game, players
