"""A revoked token is refused by every worker of ``facedown serve`` from the moment the
revocation answers 204: not "a few milliseconds later, when the hint arrives" (each worker
once trusted the tokens it had checked until a LISTEN/NOTIFY hint told it otherwise)."""
from __future__ import annotations

import http.client
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.e2e.served import Served, served

pytestmark = pytest.mark.e2e
ROUNDS, CONNECTIONS, REQUESTS = 4, 8, 12


@pytest.fixture(scope="module")
def server(db_factory: object) -> Iterator[Served]:
    with served(db_factory.new(), workers=2) as s:  # type: ignore[attr-defined]
        yield s


def _worker_of(server: Served, conn: http.client.HTTPConnection) -> int:
    """The worker process that holds the server's end of this client connection."""
    assert conn.sock is not None
    client_port = conn.sock.getsockname()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
        if local == server.port and remote == client_port:
            inode = fields[9]
    assert inode is not None, "the server's end of the connection"
    for pid in server.workers():
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except FileNotFoundError:
                continue
    raise AssertionError("no worker holds the connection")


def _status(conn: http.client.HTTPConnection, token: str) -> int:
    conn.request("GET", "/v1/me", headers={"Authorization": f"Bearer {token}"})
    r = conn.getresponse()
    r.read()
    return r.status


def _connections_to_both_workers(server: Served, token: str) -> list[http.client.HTTPConnection]:
    """Kept-alive connections, each of which has used the token (so its worker remembers it),
    spread over both workers."""
    conns: list[http.client.HTTPConnection] = []
    seen: set[int] = set()
    while len(conns) < CONNECTIONS or len(seen) < 2:
        assert len(conns) < 200, "the connections all went to one worker"
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        assert _status(conn, token) == 200
        seen.add(_worker_of(server, conn))
        conns.append(conn)
    return conns


def test_a_revoked_token_is_refused_by_every_worker_from_the_moment_the_revoke_answers(server: Served) -> None:
    owner = server.player("owner")
    own = {"Authorization": f"Bearer {owner['token']}"}
    accepted_after = []
    for n in range(ROUNDS):
        spare = requests.post(server.url + "/v1/me/tokens", json={"label": f"spare {n}"}, headers=own, timeout=10)
        token, token_id = spare.json()["token"], spare.json()["id"]
        conns = _connections_to_both_workers(server, token)
        go = threading.Event()
        statuses: list[int] = []

        def hammer(conn: http.client.HTTPConnection) -> None:
            go.wait()
            for _ in range(REQUESTS):
                statuses.append(_status(conn, token))
            fresh = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            statuses.append(_status(fresh, token))
            fresh.close()

        threads = [threading.Thread(target=hammer, args=(c,)) for c in conns]
        for t in threads:
            t.start()
        revoked = requests.delete(f"{server.url}/v1/me/tokens/{token_id}", headers=own, timeout=10)
        assert revoked.status_code == 204
        go.set()  # every request from here on is sent after the 204
        for t in threads:
            t.join(30)
        for c in conns:
            c.close()
        assert len(statuses) == len(conns) * (REQUESTS + 1)
        accepted_after += [s for s in statuses if s != 401]
    assert accepted_after == [], f"{len(accepted_after)} requests accepted the revoked token after its 204"
    me = requests.get(server.url + "/v1/me", headers=own, timeout=10)
    assert me.status_code == 200 and json.loads(me.text)["tokens"] == 1
