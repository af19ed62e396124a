"""A cluster distributed before the newest migration takes it as an operator's upgrade does:
the migration runs on the coordinator, the Citus forms of the functions go back in front
(sql/citus/functions.sql), and appends on the workers write the game's index row and its
players' notifications as before. (Written for sql/072, which changed how the append's effects
are dispatched; each later migration gets the same check.)"""
from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from events import migrations
from events.citus_cluster import LocalCluster
from tests.service.helpers import acting, serve, start_game

NEWEST = migrations.migration_files()[-1].name


def test_a_database_distributed_before_the_newest_migration_takes_it_and_appends_on(
        citus_cluster: LocalCluster, tmp_path: Path) -> None:
    url = citus_cluster.new_database(f"fd_upgrade_{uuid.uuid4().hex[:6]}")
    before = tmp_path / "sql"
    before.mkdir()
    for path in migrations.migration_files():
        if path.name < NEWEST:
            shutil.copy(path, before / path.name)
    migrations.upgrade(url, before)  # the migrations then, and the distribution
    assert [step for step in migrations.upgrade(url) if not step.startswith("citus: ")] == [NEWEST]
    for live in serve(url):
        gid, players = start_game(live, "corte", seats=2)
        for _ in range(6):  # the initial peeks, then turns: each append a game_progress, some a notify
            player, view = acting(gid, players)
            r = player.post(f"/v1/games/{gid}/commands", view["legal_actions"][0])
            assert r.status_code == 200, r.text
        version = r.json()["version"]
        listed = players[0].get("/v1/me/games").json()["games"]
        assert [(g["id"], g["version"]) for g in listed] == [(gid, version)]  # the index row, up to date
        kinds = [n["kind"] for p in players for n in p.get("/v1/me/notifications").json()["notifications"]]
        assert "your_turn" in kinds, kinds
