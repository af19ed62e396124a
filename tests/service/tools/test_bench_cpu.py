"""The benchmarks' CPU meter counts the processes the benchmark started and nothing else:
the server's tree, and the PostgreSQL backends of the benchmark's own database."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from service.tools.bench.cpu import CpuMeter, Processes, tree

BURN = "SELECT count(*) FROM generate_series(1, 4000000)"  # some hundreds of ms of one backend's CPU


@pytest.fixture
def idle_server() -> Iterator[subprocess.Popen[bytes]]:
    """A stand-in for the benchmark's server: a process tree that does nothing."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc
    proc.kill()
    proc.wait()


def _burn(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(BURN)


def test_backends_of_other_databases_are_not_counted_and_nothing_is_negative(
        db_factory: Any, idle_server: subprocess.Popen[bytes]) -> None:
    mine, other = db_factory.new(), db_factory.new()
    with psycopg.connect(mine, autocommit=True) as resident:  # a backend of mine that stays
        resident.execute("SELECT 1")
        meter = CpuMeter(idle_server.pid, mine)
        for _ in range(2):
            _burn(other)  # backends of another database start, work hard and exit meanwhile
        quiet = meter.stop(1, 0.0)
        meter = CpuMeter(idle_server.pid, mine)
        _burn(mine)  # a backend of mine that starts, works and exits during the run
        resident.execute(BURN)
        busy = meter.stop(1, 0.0)
    assert quiet["server"] is not None and 0 <= quiet["server"] < 50
    assert quiet["postgres"] is not None and 0 <= quiet["postgres"] < 50
    assert busy["postgres"] is not None and busy["postgres"] > 150 > quiet["postgres"]
    assert busy["total"] == pytest.approx(busy["server"] + busy["postgres"] + busy["clients"], abs=0.01)


#: a child that burns 0.3 s of CPU once told to (a line on stdin), says so, then waits: on
#: a loaded machine, a fixed wall-clock wait gave it too little CPU (0.1 s was once all it had used)
BURNER = """import sys, threading, time
def burn():
    t = time.thread_time()
    while time.thread_time() - t < 0.3: pass
    print('burnt', flush=True)
    time.sleep(30)
sys.stdin.readline()
{start}
time.sleep(30)"""


def _metered_burn(on_a_thread: bool) -> tuple[subprocess.Popen[str], Processes]:
    """A :data:`BURNER` child, metered from before it burns to just after (sampled then), its
    work on the main thread or on a second one."""
    start = "threading.Thread(target=burn).start()" if on_a_thread else "burn()"
    proc = subprocess.Popen([sys.executable, "-c", BURNER.format(start=start)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    meter = Processes(lambda: tree(proc.pid))
    meter.start()
    proc.stdin.write("go\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "burnt"
    meter.sample()
    return proc, meter


def test_a_process_that_exits_counts_up_to_its_last_sample_and_never_below_zero() -> None:
    proc, meter = _metered_burn(on_a_thread=False)
    proc.kill()
    proc.wait()
    meter.sample()  # gone: its last reading stays
    assert len(meter) == 1 and meter.seconds() > 0.25


def test_a_few_milliseconds_of_postgresql_are_not_read_as_zero(
        database_url: str, idle_server: subprocess.Popen[bytes]) -> None:
    # the stack floor's short run: a few cheap statements on a backend that stays, some
    # milliseconds of its CPU in all, less than one clock tick of /proc/PID/stat (which read 0)
    with psycopg.connect(database_url, autocommit=True) as resident:
        resident.execute("SELECT 1")
        meter = CpuMeter(idle_server.pid, database_url)
        for _ in range(20):
            resident.execute("SELECT 1")
        cpu = meter.stop(20, 0.0)
    assert cpu["postgres"] is not None and 0 < cpu["postgres"] < 10


def test_the_cpu_of_every_thread_of_a_process_is_counted() -> None:
    """A gthread worker answers each request on a thread of its pool: the main thread idles
    while another works, and the process' CPU is the sum of its threads'."""
    proc, meter = _metered_burn(on_a_thread=True)
    try:
        assert 0.25 <= meter.seconds() < 1.0, meter.seconds()
    finally:
        proc.kill()
        proc.wait()
