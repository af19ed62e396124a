"""``facedown bench notify``: how soon and how often players whose page is closed hear of
their games.

* **latency**: the time from the join that makes a game wait for a player (the call that
  commits it) to the e-mail accepted by an SMTP server and to the push accepted by a push
  endpoint (both on loopback, ``reach_sinks``), p50 and p99, with this many players' games
  waiting: the senders run as ``facedown serve`` runs them (threads of the app, one process
  sending, woken by the commit's hint), commits at a steady rate;
* **week**: the messages per player per day that a simulated week of correspondence play
  sends under the default settings (turns in a digest at most twice a day, reminders 24 h and
  2 h before a deadline, pushes at once), on a moved clock: each player answers a turn after
  a random delay (exponential, 6 h on average), each keeps a few games going.
"""
from __future__ import annotations

import random
import time
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any

from domain import bots
from events import game_index, reach, reach_outbox
from events.reach_outbox import MailItem
from facedown_client.bot import pick
from service.config import Config
from service.http.app import close_app, create_app, dependencies
from service.model import reach as reach_model
from service.model import reach_messages as rm
from service.tools.bench.common import latency
from service.tools.bench.reach_sinks import Accepted, browser_keys, push_sink, smtp_sink
from service.usecases import accounts, lobby, playing, reading
from service.usecases.accounts import token_digest
from service.usecases.dependencies import Dependencies
from service.usecases.lobby import available
from service.usecases.reach_mail import MailSender
from service.usecases.reach_push import PushSender

FROM = "facedown bench <bench@facedown.invalid>"
IMMEDIATE = {"email": {"turn": "immediate"}}


def _reachable(deps: Dependencies, name: str, origin: str, settings: dict[str, Any] | None) -> tuple[str, str, str]:
    """A player with a verified address and a push subscription: (id, address, push id)."""
    made = accounts.register_player(deps, name)
    pid, now = uuid.UUID(made["id"]), deps.clock()
    address, token = f"{made['handle']}@bench.invalid", uuid.uuid4().hex
    expires = now + timedelta(hours=24)
    mail = MailItem(pid, "verify_email", rm.verify_email(address, expires).args, to_address=address, secret=token)
    reach.set_email(deps.db, pid, address, token_digest(token), expires, now, mail)
    reach.verify_email(deps.db, token_digest(token), now)
    if settings is not None:
        stored = reach_model.update(None, settings)
        email_kinds, push_kinds = reach_model.follows(reach_model.effective(stored))
        reach.put_settings(deps.db, pid, stored, email_kinds, push_kinds, now)
    push_id = uuid.uuid4().hex
    p256dh, auth = browser_keys()
    reach.subscribe(deps.db, pid, uuid.uuid4(), f"{origin}/push/{push_id}", p256dh, auth, now, 10)
    return made["id"], address, push_id


def _until(check: Any, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.02)
    return False


def _first_after(accepted: Accepted, who: str, since: float) -> float | None:
    return next((t for t in accepted.at.get(who, ()) if t >= since), None)


def run_latency(database_url: str, players: int, rate: float) -> dict[str, Any]:
    """``players`` games of two, each player reachable; each game's deal makes it wait for one
    of them. Returns the e-mail and push latencies from the join (the call that commits it)."""
    games = players
    with smtp_sink() as (smtp_url, mails), push_sink() as (origin, pushes):
        app = create_app({"database_url": database_url, "auto_migrate": False, "reach_worker": True,
                          "smtp_url": smtp_url, "mail_from": FROM, "push_allow_private": True, "pool_size": 16})
        try:
            deps = app.extensions["facedown"]
            pairs = [(_reachable(deps, f"a{i}", origin, IMMEDIATE), _reachable(deps, f"b{i}", origin, IMMEDIATE))
                     for i in range(games)]
            # the verification e-mails go first, out of the way of the timing
            _until(lambda: mails.count() >= 2 * games, 60 + games / 10)
            committed: list[tuple[float, tuple[tuple[str, str, str], ...]]] = []
            start = time.monotonic()
            for i, pair in enumerate(pairs):
                time.sleep(max(0.0, start + i / rate - time.monotonic()))
                cur, _ = lobby.create_game(deps, (pair[0][0], "a"), "pedro", 2, {}, f"bench {i}", True, None)
                # timed from the join's call, which commits it: the senders are other threads, and a
                # loaded machine can hold this one past their delivery before the call returns (a
                # time taken after it then missed that delivery: "missing", once in a test run)
                joined = time.monotonic()
                lobby.join_game(deps, uuid.UUID(cur.game.id), (pair[1][0], "b"), None)
                committed.append((joined, pair))
            spent = time.monotonic() - start

            def delays(accepted: Accepted, index: int) -> list[float]:
                out = []
                for at, pair in committed:
                    got = [t for who in pair if (t := _first_after(accepted, who[index], at)) is not None]
                    if got:
                        out.append((min(got) - at) * 1000)
                return out

            _until(lambda: len(delays(mails, 1)) >= games and len(delays(pushes, 2)) >= games, 30 + games / 20)
            email, push = delays(mails, 1), delays(pushes, 2)
        finally:
            close_app(app)
    return {"players_waiting": games, "commits": games, "commit_rate_per_second": round(games / spent, 1),
            "email": {**latency(email), "max_ms": round(max(email, default=0.0), 2), "missing": games - len(email)},
            "push": {**latency(push), "max_ms": round(max(push, default=0.0), 2), "missing": games - len(push)}}


class _Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def run_week(database_url: str, players: int, days: float, games_each: int, seed: int = 1) -> dict[str, Any]:
    """A simulated week (``days``) of ``players`` playing ``games_each`` games of two at once,
    all under the default notification settings; the messages each received per day."""
    rng = random.Random(seed)
    clock = _Clock(datetime(2026, 3, 2, 7, 0, tzinfo=timezone.utc))
    with smtp_sink() as (smtp_url, mails), push_sink() as (origin, pushes):
        config = Config(database_url=database_url, auto_migrate=False, smtp_url=smtp_url, mail_from=FROM,
                        push_allow_private=True, extra={"clock": clock})
        deps = dependencies(config)
        try:
            people = [_reachable(deps, f"p{i}", origin, None) for i in range(players)]
            mail, push = MailSender(deps), PushSender(deps)
            _drain(mail, push)
            sent_before = (mails.count(), pushes.count())
            rulesets = available()
            games: dict[uuid.UUID, tuple[str, str, str]] = {}  # game -> (ruleset, player a, player b)
            for i in range(players * games_each // 2):
                a, b = rng.sample(people, 2)
                _new_game(deps, games, rulesets[i % len(rulesets)], a[0], b[0], rng)
            answers: dict[tuple[uuid.UUID, int, int], datetime] = {}  # (game, version, seat) -> when it answers
            choose = {name: bots.policy(name, "greedy") for name in rulesets}
            end, step, moves, finished = clock.now + timedelta(days=days), timedelta(minutes=15), 0, 0
            while clock.now < end:
                rows = game_index.rows(deps.db, list(games))
                for gid, row in rows.items():
                    if row.status != "active":
                        ruleset, a, b = games.pop(gid)
                        finished += 1
                        _new_game(deps, games, ruleset, a, b, rng)
                        continue
                    for seat in row.awaiting:
                        when = answers.setdefault((gid, row.version, seat),
                                                  clock.now + timedelta(hours=rng.expovariate(1 / 6)))
                        if when <= clock.now:
                            moves += _move(deps, gid, row, seat, choose[row.ruleset], rng)
                            break
                for gid in game_index.due(deps.db, clock.now, 500):
                    playing.play(deps, gid)  # windows that close, turns that time out
                _drain(mail, push)
                clock.now += step
            _drain(mail, push)
            per_day = players * days
            kinds = _kinds(deps, people)
        finally:
            deps.close()
    emails, pushes_n = mails.count() - sent_before[0], pushes.count() - sent_before[1]
    per_mail = Counter({p[1]: len(mails.at.get(p[1], ())) - 1 for p in people})  # less the verification
    return {"players": players, "days": days, "games_each": games_each, "games_finished": finished, "moves": moves,
            "emails_per_player_per_day": round(emails / per_day, 2),
            "pushes_per_player_per_day": round(pushes_n / per_day, 2),
            "most_emails_to_one_player_per_day": round(max(per_mail.values(), default=0) / days, 2),
            "emails_by_kind": kinds[0], "pushes_by_kind": kinds[1]}


def _new_game(deps: Dependencies, games: dict[uuid.UUID, tuple[str, str, str]], ruleset: str, a: str, b: str,
              rng: random.Random) -> None:
    cur, _ = lobby.create_game(deps, (a, "a"), ruleset, 2, {}, f"{ruleset} {len(games)}", True, rng.randbytes(16))
    gid = uuid.UUID(cur.game.id)
    lobby.join_game(deps, gid, (b, "b"), rng.randbytes(16))
    games[gid] = (ruleset, a, b)


def _move(deps: Dependencies, gid: uuid.UUID, row: Any, seat: int, policy: Any, rng: random.Random) -> int:
    player = next(s["player_id"] for s in row.seats if s["seat"] == seat)
    _, view = reading.seat_view(deps, gid, player, lambda version: False)
    if view is None or not view["legal_actions"]:
        return 0
    actions = view["legal_actions"]
    action = policy(view["table"], actions, rng, True) or pick(actions[rng.randrange(len(actions))], rng)
    try:
        playing.run_command(deps, gid, player, action, None, None, f"/v1/games/{gid}/commands")
    except Exception:  # noqa: BLE001 - a move the game no longer takes (it changed meanwhile)
        return 0
    return 1


def _drain(mail: MailSender, push: PushSender) -> None:
    for _ in range(1000):
        if mail.run_once() + push.run_once() == 0:
            return


def _kinds(deps: Dependencies, people: list[tuple[str, str, str]]) -> tuple[dict[str, int], dict[str, int]]:
    """How many e-mails and pushes of each kind were sent (the verifications left out)."""
    mails, pushes = Counter[str](), Counter[str]()
    for pid, _, _ in people:
        mails.update(r.kind for r in reach_outbox.mail_rows(deps.db, uuid.UUID(pid))
                     if r.status == "sent" and r.kind != "verify_email")
        pushes.update(r.kind for r in reach_outbox.push_rows(deps.db, uuid.UUID(pid)) if r.status == "sent")
    return dict(sorted(mails.items())), dict(sorted(pushes.items()))

