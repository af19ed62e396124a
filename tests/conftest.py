"""Shared fixtures: a real PostgreSQL, one fresh migrated database per test; and how the
suite is shared between parallel processes."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

# Python's bytecode and pytest's rewritten test modules are cached on disk even where
# PYTHONDONTWRITEBYTECODE is set (some shells and CI images set it): without the caches every
# process of a run compiles the code again, the test processes and each `facedown serve`, client
# and tool the tests start (about 50 servers), and each test process rewrites every test module's
# asserts (4.7 CPU-s of its 7.4 s collection). The caches go in __pycache__ (.gitignore).
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False

#: directories whose tests share one costly session fixture, so run in one process together:
#: a Citus cluster of three servers, a browser with its server
_ONE_PROCESS = ("tests/citus/", "tests/browser/")

#: the shares that take longest, handed out first, longest first, so that no process is left with
#: one of them at the end while the others have finished; the rest go in collection order. In the
#: order of their seconds in a whole run of 2,014 tests (docs/performance.md, "Tenth look"); a
#: stale list costs time, not results.
_LONGEST_FIRST = (
    "tests/citus/",
    "tests/browser/",
    "tests/e2e/test_check_reliability.py",
    "tests/service/http/test_contract.py",
    "tests/service/tools/test_bench_commands.py",
    "tests/e2e/test_connections.py",
    "tests/contract/test_conformance.py",
    "tests/domain/test_cuatro_cartas_properties.py",
    "tests/service/http/test_sse.py",
    "tests/events/test_test_databases.py",
    "tests/service/http/lifecycle/test_inbox.py",
    "tests/e2e/test_shutdown.py",
    "tests/service/adapters/test_webhooks.py",
    "tests/service/tools/test_simulate_with_orders.py",
    "tests/e2e/test_bots_through_the_api.py",
    "tests/contract/test_generated_client.py",
    "tests/e2e/test_readme_curl.py",
)


def share_of(nodeid: str) -> str:
    """The share of the suite that one parallel process runs whole: a directory of
    ``_ONE_PROCESS``, or else the test's module, so that its module-scoped server starts once."""
    module = nodeid.split("::")[0]
    return next((d for d in _ONE_PROCESS if module.startswith(d)), module)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one process more than the machine has cores. A fifth of the suite's time
    is spent waiting (on servers it started, timeouts it tests, a browser), which one process
    per core left idle: on 2 cores, 3 processes took the run from about 325 s to 280 s.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when it is set."""
    import os

    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return (os.cpu_count() or 1) + 1


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """The suite runs in parallel processes (pytest-xdist): each :func:`share_of` goes to one.

    A scheduler of our own rather than ``--dist loadgroup`` with marks, because that mode
    renames node ids through an attribute pytest 9.2 no longer reads, and then quietly
    spreads every test on its own (two Citus clusters, two browsers, a module's server per
    process)."""
    from xdist.scheduler import LoadScopeScheduling

    def rank(share: str) -> int:
        return _LONGEST_FIRST.index(share) if share in _LONGEST_FIRST else len(_LONGEST_FIRST)

    class ByShare(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return share_of(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            # the queue is in collection order; the next share handed out is the longest left
            self.workqueue.move_to_end(min(self.workqueue, key=rank), last=False)
            super()._assign_work_unit(node)

    return ByShare(config, log)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def db_factory() -> Iterator[object]:
    from events.testing import DatabaseFactory, admin_url

    url, server = admin_url()
    factory = DatabaseFactory(url)
    yield factory
    # on a shared server the drops (a checkpoint each) finish after the run, not before its end
    factory.drop_all(background=server is None)
    if server is not None:
        server.stop()


@pytest.fixture
def database_url(db_factory: object) -> str:
    """The URL of a fresh, migrated database used by this test alone."""
    return db_factory.new()  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def make_app(database_url: str) -> Iterator[Any]:
    """``make(**config)``: an app on this test's database (``config`` overrides the rest), its
    workers, listeners and pools closed when the test ends, not left running until the process
    does (where they outlived the database and warned of it)."""
    from service.http.app import close_app, create_app

    made: list[Any] = []

    def make(**config: Any) -> Any:
        made.append(create_app({"database_url": database_url, **config}))
        return made[-1]

    yield make
    for app in made:
        close_app(app)


@pytest.fixture
def store(database_url: str) -> Iterator[object]:
    from events.db import Database
    from events.store import EventStore

    db = Database(database_url, max_size=12)
    yield EventStore(db)
    db.close()
