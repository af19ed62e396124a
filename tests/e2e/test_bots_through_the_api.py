"""Bots that play through the API: `facedown bot`, and greedy over HTTP as in-process."""
from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from domain import bots, rules
from domain.simulation import play_in_seat_order
from facedown_client import Client, play_seats
from service.model import fairness
from service.audit.log import read_log
from service.tools.contract.conformance import SHORT
from tests.sdk.conftest import Served, facedown_serve


@pytest.fixture(scope="module")
def served(db_factory: object) -> Iterator[Served]:
    yield from facedown_serve(db_factory.new())  # type: ignore[attr-defined]


def _seated(served: Served, ruleset: str, seats: int) -> tuple[str, list[Client]]:
    clients = [Client(served.url) for _ in range(seats)]
    for i, c in enumerate(clients):
        c.register(f"bot-{ruleset}-{i}")
    gid = clients[0].create_game(ruleset, seats, SHORT[ruleset]).id
    for c in clients[1:]:
        c.join(gid)
    return gid, clients


@pytest.mark.parametrize("ruleset", rules.names())
def test_greedy_makes_the_same_moves_over_http_as_in_process_with_the_same_deal_and_seed(
        served: Served, ruleset: str) -> None:
    gid, clients = _seated(served, ruleset, 3)
    over_http: list[tuple[int, dict]] = []
    play_seats(clients, gid, bots.policy(ruleset, "greedy"), seed=11,
               on_command=lambda seat, action: over_http.append((seat, action)))
    final = clients[0].game(gid)
    export = clients[0].request("GET", f"/v1/games/{gid}/audit")
    log = read_log(export["events"])
    key = fairness.game_key(bytes.fromhex(str(log.secret)), log.entropies())
    rs = rules.get(ruleset)
    state, in_process = play_in_seat_order(rs, 3, log.options, key, "greedy", seed=11)
    assert in_process == over_http
    assert list(rs.scores(state)) == final.scores and final.status == "finished"


def test_facedown_bot_plays_every_game_of_its_players_to_the_end(served: Served) -> None:
    first, clients = _seated(served, "least-score", 2)
    # the same two players at a second table: each bot plays both of its player's games
    tokens = [c.token for c in clients]
    second = Client(served.url, tokens[0]).create_game("pedro", 2, SHORT["pedro"])
    Client(served.url, tokens[1]).join(second.id)
    procs = [subprocess.Popen([sys.executable, "-c", "from service.entrypoints.cli import main; main()", "bot",
                               "--base-url", served.url, "--token", t, "--policy", "greedy", "--seed", str(i),
                               "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i, t in enumerate(tokens)]
    try:
        outs = [p.communicate(timeout=600) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert all(p.returncode == 0 for p in procs), outs
    me = Client(served.url, tokens[0])
    mine = me.my_games()
    assert {g.id for g in mine} == {first, second.id}
    assert all(g.status == "finished" for g in mine), [(g.id, g.status) for g in mine]
    assert all("commands sent" in err for _out, err in outs)


def _bot(served: Served, token: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", "from service.entrypoints.cli import main; main()", "bot", "--base-url",
                             served.url, "--token", token, "--quiet", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_facedown_bot_of_one_game_exits_with_a_summary_when_that_game_is_over(served: Served) -> None:
    gid, clients = _seated(served, "least-score", 2)
    procs = [_bot(served, c.token, "--games", gid, "--seed", str(i)) for i, c in enumerate(clients)]
    try:
        outs = [p.communicate(timeout=120) for p in procs]  # it once kept waiting for news forever
    finally:
        for p in procs:
            p.kill()
    assert [p.returncode for p in procs] == [0, 0], outs
    assert clients[0].game(gid).status == "finished"
    for _out, err in outs:
        assert re.fullmatch(r"bot: [1-9]\d* commands sent in 1 game \(1 finished\)\n", err), err
    # started on a game that is already over, it says so at once
    again = _bot(served, clients[0].token, "--games", gid)
    out, err = again.communicate(timeout=30)
    assert again.returncode == 0 and err == "bot: 0 commands sent in 1 game (1 finished)\n"
