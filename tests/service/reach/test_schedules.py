"""Reminders, quiet hours, digests and unsubscribing, on a clock the test moves; with no
e-mail server, nothing piles up."""
from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from events import game_index, reach_outbox
from service.usecases.reach_mail import MailSender
from tests.service.reach.conftest import Reach

HOUR = 3600
LEADS = {"email": {"turn": "immediate", "reminders": [8 * HOUR, 4 * HOUR, HOUR]}}


def _deadline(world: Reach, gid: uuid.UUID) -> datetime:
    row = game_index.rows(world.deps.db, [gid])[gid]
    return datetime.fromisoformat(row.deadline["at"].replace("Z", "+00:00"))


def _two(world: Reach, **settings: object) -> tuple[uuid.UUID, str, str]:
    ann = world.player("Ann", address="ann@example.org", **settings)  # type: ignore[arg-type]
    bob = world.player("Bob", address="bob@example.org", **settings)  # type: ignore[arg-type]
    gid = world.game(ann, bob)
    [first] = world.awaited(gid)
    return gid, first, "ann@example.org" if first == ann[0] else "bob@example.org"


def _subjects(world: Reach, address: str) -> list[str]:
    return [m.header("Subject") or "" for m in world.mails_to(address, "news")]


def test_reminders_go_at_each_lead_once_and_stop_when_the_player_moves(world: Reach) -> None:
    gid, first, address = _two(world, settings=LEADS)
    deadline = _deadline(world, gid)
    world.send_all()
    assert _subjects(world, address) == ["Your move in Friday table"]
    world.clock.now = deadline - timedelta(hours=8) + timedelta(seconds=1)
    world.send_all()
    world.send_all()
    assert _subjects(world, address)[1:] == ["8 hours left to move in Friday table"]
    world.clock.now = deadline - timedelta(hours=4)
    world.send_all()
    assert _subjects(world, address)[2:] == ["4 hours left to move in Friday table"]
    world.play(gid, first)  # the reminder at 1 h is cancelled by the move
    world.clock.now = deadline - timedelta(minutes=59)
    world.send_all()
    assert len(_subjects(world, address)) == 3
    rows = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "reminder"]
    assert sorted((r.args["lead"], r.status) for r in rows) == [(HOUR, "skipped"), (4 * HOUR, "sent"),
                                                                 (8 * HOUR, "sent")]


def test_quiet_hours_hold_a_push_until_they_end(world: Reach) -> None:
    world.clock.now = datetime(2026, 3, 2, 23, 0, tzinfo=timezone.utc)  # 23:00 in Lisbon (winter time)
    quiet = {"time_zone": "Europe/Lisbon", "quiet_hours": {"from": "22:00", "to": "07:30"}}
    ann = world.player("Ann", settings=quiet, subscribe=True)
    bob = world.player("Bob", settings=quiet, subscribe=True)
    gid = world.game(ann, bob)
    world.send_all()
    assert world.push.pushes == []
    world.clock.now = datetime(2026, 3, 3, 7, 29, tzinfo=timezone.utc)
    world.send_all()
    assert world.push.pushes == []
    world.clock.now = datetime(2026, 3, 3, 7, 30, tzinfo=timezone.utc)
    world.send_all()
    assert [p.data["kind"] for p in world.push.pushes] == ["your_turn"]
    assert world.push.pushes[0].data["game_id"] == str(gid)


def test_turns_join_one_digest_listing_every_waiting_game_most_urgent_first(world: Reach) -> None:
    me = world.player("Ann", address="ann@example.org")  # the defaults: turns in a digest
    names = iter(f"Table {n}" for n in range(1, 40))
    waiting: list[str] = []
    for _ in range(30):  # who moves first is the deal's: make games until two wait for Ann
        other = world.player("Bob")
        name = next(names)
        gid = world.game(me, other, name=name)
        if world.awaited(gid) == [me[0]]:
            waiting.append(name)
            if len(waiting) == 2:
                break
        world.clock.move(minutes=30)  # later games, later deadlines
    assert len(waiting) == 2
    world.send_all()
    assert world.mails_to("ann@example.org", "news") == []
    digests = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(me[0])) if r.kind == "digest"]
    assert len(digests) == 1 and digests[0].due_at == datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)
    world.clock.now = datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc)
    world.send_all()
    [mail] = world.mails_to("ann@example.org", "news")
    assert mail.header("Subject") == "2 games wait for you"
    text = mail.text() or ""
    assert text.index(waiting[0]) < text.index(waiting[1])  # the nearer deadline first


def test_an_unsubscribed_kind_of_email_stops_and_the_others_go_on(world: Reach) -> None:
    gid, first, address = _two(world, settings=LEADS)
    world.send_all()
    [turn] = world.mails_to(address, "news")
    world.unsubscribe(turn)  # turns off; reminders go on
    for _ in range(40):  # play until the game waits for the same player again
        [mover] = world.awaited(gid)
        world.play(gid, mover)
        if world.awaited(gid) == [first]:
            break
    assert world.awaited(gid) == [first]
    world.send_all()
    assert len(world.mails_to(address, "news")) == 1
    turns = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "your_turn"]
    assert [(r.status, r.last_error) for r in turns][-1] == ("skipped", "turned off")
    world.clock.now = _deadline(world, gid) - timedelta(hours=8)
    world.send_all()
    assert _subjects(world, address)[-1] == "8 hours left to move in Friday table"


def test_with_no_email_server_mail_rows_are_skipped_not_kept(world: Reach) -> None:
    gid, first, address = _two(world, settings=LEADS)
    world.deps.config = world.deps.config.__class__(**{**world.deps.config.__dict__, "smtp_url": ""})
    silent = MailSender(world.deps)
    assert silent.mailer is None
    while silent.run_once():
        pass
    assert world.smtp.messages == []
    rows = reach_outbox.mail_rows(world.deps.db, uuid.UUID(first))
    assert rows and {(r.status, r.last_error) for r in rows} == {("skipped", "no e-mail server")}


def test_a_reminder_of_a_deadline_that_moved_is_skipped_and_the_new_deadlines_are_written(world: Reach) -> None:
    from service.usecases import vacation

    gid, first, address = _two(world, settings=LEADS)
    before = _deadline(world, gid)
    world.send_all()
    world.clock.now = before - timedelta(hours=9)
    vacation.start(world.deps, first, 2)  # the player's clocks stand still: the deadline moves on
    after = _deadline(world, gid)
    assert after > before
    world.clock.now = before - timedelta(hours=8)
    world.send_all()
    assert _subjects(world, address) == ["Your move in Friday table"]
    rows = [r for r in reach_outbox.mail_rows(world.deps.db, uuid.UUID(first)) if r.kind == "reminder"]
    old = [r for r in rows if r.args["deadline"] == before.isoformat()]
    new = [r for r in rows if r.args["deadline"] != before.isoformat()]
    assert {(r.args["lead"], r.status) for r in old} >= {(8 * HOUR, "skipped")}
    assert sorted(r.args["lead"] for r in new) == [HOUR, 4 * HOUR, 8 * HOUR]
    world.clock.now = after - timedelta(hours=8)
    world.send_all()
    assert _subjects(world, address)[-1] == "8 hours left to move in Friday table"


def test_settled_rows_are_forgotten_after_the_retention_and_their_unsubscribe_links_with_them(world: Reach) -> None:
    gid, first, address = _two(world, settings=LEADS)
    world.send_all()
    [turn] = world.mails_to(address, "news")
    token = uuid.UUID((turn.header("List-Unsubscribe") or "").strip("<>").rsplit("/", 1)[1])
    assert reach_outbox.unsubscribe_target(world.deps.db, token) is not None
    world.clock.move(days=59)
    world.mail.purge()
    assert reach_outbox.unsubscribe_target(world.deps.db, token) is not None
    world.clock.move(days=1, seconds=1)
    assert world.mail.purge() > 0
    assert reach_outbox.unsubscribe_target(world.deps.db, token) is None


def test_a_reminder_whose_deadline_falls_in_quiet_hours_goes_during_them_and_others_wait(world: Reach) -> None:
    quiet = {"time_zone": "UTC", "quiet_hours": {"from": "00:00", "to": "23:59"},
             "email": {"turn": "immediate", "reminders": [HOUR]}}
    gid, first, address = _two(world, settings=quiet)
    deadline = _deadline(world, gid)
    world.send_all()
    assert _subjects(world, address) == []  # the turn waits for the end of the quiet hours
    world.clock.now = deadline - timedelta(hours=1)  # the reminder: its deadline is inside them
    world.send_all()
    assert _subjects(world, address) == ["1 hour left to move in Friday table"]
