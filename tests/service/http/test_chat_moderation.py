"""`facedown moderation` (docs/chat.md): the operator lists the reports, newest first, with the
message each is about, and hides a message by its game and number, for everyone."""
from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from events.db import Database
from events.store import EventStore
from service.entrypoints.cli_moderation import moderation
from service.model.chat import stream_of
from tests.service.helpers import Live, serve
from tests.service.http.test_chat import _game, _say, _texts


@pytest.fixture(scope="module")
def live(db_factory: object) -> Iterator[Live]:
    yield from serve(db_factory.new(), extra={"chat_rate": (100.0, 100.0)})  # type: ignore[attr-defined]


def test_reports_are_listed_and_hide_takes_a_message_away_for_everyone(live: Live,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", live.database_url)
    runner = CliRunner()
    assert runner.invoke(moderation, ["reports"]).output.strip() == "no reports"
    gid, (ann, bob) = _game(live)
    n = _say(bob, gid, "you <3 cheat").json()["n"]
    _say(bob, gid, "kidding")
    ann.post(f"/v1/games/{gid}/chat/{n}/report", {"reason": "accusations"})
    listed = runner.invoke(moderation, ["reports", "--json"])
    assert listed.exit_code == 0, listed.output
    [row] = [json.loads(line) for line in listed.output.splitlines()]
    assert (row["game_id"], row["n"], row["reporter"], row["reason"], row["author"], row["text"], row["hidden"]) == (
        gid, n, ann.id, "accusations", bob.id, "you <3 cheat", False)
    text = runner.invoke(moderation, ["reports"]).output
    assert f"{gid} {n}" in text and '"you <3 cheat"' in text

    hidden = runner.invoke(moderation, ["hide", gid, str(n), "--reason", "abuse"])
    assert hidden.exit_code == 0 and "hidden" in hidden.output
    assert _texts(ann, live, gid) == _texts(bob, live, gid) == _texts(None, live, gid) == ["kidding"]
    assert json.loads(runner.invoke(moderation, ["reports", "--json"]).output)["hidden"] is True
    missing = runner.invoke(moderation, ["hide", gid, str(n + 50)])
    assert missing.exit_code != 0 and "no message" in missing.output
    assert runner.invoke(moderation, ["hide", "not-a-game", "1"]).exit_code == 2
    # the log is whole: the message and its hiding are both in it, the chain verifies
    db = Database(live.database_url, max_size=1, service_role=False)
    try:
        store = EventStore(db)
        log = store.read(stream_of(uuid.UUID(gid)))
        assert [e.type for e in log][-1] == "ChatMessageHidden" and log[0].data["text"] == "you <3 cheat"
        assert store.verify(stream_of(uuid.UUID(gid))) is None
    finally:
        db.close()
    assert "GAME_ID" in runner.invoke(moderation, ["hide", "--help"]).output
