"""A Citus cluster on this machine (a coordinator and workers on free ports under a temporary
directory), for the tests and ``facedown bench store --citus``; never used to serve players.

Each node is a PostgreSQL 15 data directory made by ``initdb`` with
``shared_preload_libraries = 'citus'``, run by a user that is not root (as root: the embedded
server's own unprivileged account, see :mod:`events.pg_host`). With ``citus=False`` it is one
plain node with the same settings (a benchmark's single-node baseline).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from events.pg_host import RunAs, clean_env, server_user
from events.ports import free_port

BINDIR = Path(os.environ.get("FACEDOWN_CITUS_BINDIR", "/usr/lib/postgresql/15/bin"))
DATABASE = "facedown"
SUPERUSER = "postgres"


def citus_missing() -> str | None:
    """Why a local Citus cluster cannot be started here, or None if it can."""
    if not (BINDIR / "initdb").exists():
        return f"no PostgreSQL server binaries in {BINDIR} (FACEDOWN_CITUS_BINDIR)"
    lib = BINDIR.parent / "lib" / "citus.so"
    if not lib.exists():
        return f"Citus is not installed into the PostgreSQL of {BINDIR} ({lib} is missing)"
    return None


@dataclass
class LocalCluster:
    """``workers`` worker nodes beside a coordinator; :meth:`start` returns the coordinator's URL."""

    workers: int = 2
    citus: bool = True
    durable: bool = False  # fsync and synchronous commits (a benchmark); off for tests
    shard_count: int | None = None  # citus.shard_count on every node; None: Citus's own default (32)
    base: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="facedown-citus-")))
    ports: list[int] = field(default_factory=list)
    _run_as: RunAs = field(default_factory=server_user)

    def url(self, node: int = 0, database: str = DATABASE) -> str:
        return make_conninfo("", host="127.0.0.1", port=str(self.ports[node]), user=SUPERUSER, dbname=database)

    def _run(self, *argv: str) -> None:
        r = subprocess.run(list(argv), capture_output=True, text=True, env=clean_env(), cwd="/",
                           check=False, **self._run_as.kwargs())
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[:2])} failed: {r.stdout}\n{r.stderr}")

    def _settings(self, port: int) -> str:
        lines = [f"port = {port}", "listen_addresses = '127.0.0.1'", f"unix_socket_directories = '{self.base}'",
                 "max_connections = 200", "max_prepared_transactions = 200", "shared_buffers = '64MB'"]
        if self.citus:
            # every database with the extension keeps a Citus maintenance daemon in a background
            # worker slot, and a rebalance runs its moves in more: with PostgreSQL's 8 slots, the
            # tests' databases (one per module) left none, and citus_rebalance_wait() waited forever
            lines += ["shared_preload_libraries = 'citus'", "max_worker_processes = 64"]
            if self.shard_count:
                lines.append(f"citus.shard_count = {int(self.shard_count)}")
        if not self.durable:
            lines += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]
        return "\n".join(lines) + "\n"

    def start(self) -> str:
        if self.citus and (why := citus_missing()):
            raise RuntimeError(why)
        if self._run_as.uid is not None:
            os.chown(self.base, self._run_as.uid, self._run_as.gid)
        for _ in range(1 + (self.workers if self.citus else 0)):
            self._start_node()
        return self.new_database(DATABASE)

    def _start_node(self) -> int:
        """A new node (initdb, settings, start) on a free port; returns its index."""
        i, port = len(self.ports), free_port()
        data = self.base / f"node{i}"
        self._run(str(BINDIR / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8")
        with open(data / "postgresql.conf", "a") as conf:
            conf.write(self._settings(port))
        self.ports.append(port)
        self._run(str(BINDIR / "pg_ctl"), "-D", str(data), "-l", str(data / "server.log"), "-w", "-t", "60", "start")
        return i

    def add_worker(self, database: str) -> int:
        """One more worker, made part of ``database``'s cluster as an operator would (the
        database and the extension on it, then ``citus_add_node`` on the coordinator); the
        databases made after it have it too. Returns its index."""
        i = self._start_node()
        with psycopg.connect(self.url(i, "postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')  # type: ignore[arg-type]
        with psycopg.connect(self.url(i, database), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION citus")
        with psycopg.connect(self.url(0, database), autocommit=True) as conn:
            conn.execute("SELECT citus_add_node('127.0.0.1', %s)", (self.ports[i],))
        return i

    def new_database(self, name: str) -> str:
        """A database of that name on every node, made one cluster (the extension on each node,
        the workers added on the coordinator): what an operator does once (CREATE DATABASE is
        not propagated by Citus). Returns the coordinator's URL of it."""
        for i in range(len(self.ports)):
            with psycopg.connect(self.url(i, "postgres"), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
            if self.citus:
                with psycopg.connect(self.url(i, name), autocommit=True) as conn:
                    conn.execute("CREATE EXTENSION citus")
        if self.citus:
            with psycopg.connect(self.url(0, name), autocommit=True) as conn:
                conn.execute("SELECT citus_set_coordinator_host('127.0.0.1', %s)", (self.ports[0],))
                for port in self.ports[1:]:
                    conn.execute("SELECT citus_add_node('127.0.0.1', %s)", (port,))
        return self.url(0, name)

    def stop(self) -> None:
        for i in range(len(self.ports)):
            data = self.base / f"node{i}"
            if (data / "postmaster.pid").exists():
                subprocess.run([str(BINDIR / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                               capture_output=True, env=clean_env(), cwd="/", check=False, **self._run_as.kwargs())
        shutil.rmtree(self.base, ignore_errors=True)
