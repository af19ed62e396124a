"""The waiters of ``facedown bench stream``: client processes running asyncio over raw
sockets (thousands of connections cost the client side little CPU). The SSE clients speak
HTTP/1.0, so that the stream needs no chunked decoding."""
from __future__ import annotations

import asyncio
import json
import resource
import time
from dataclasses import dataclass
from typing import Any


@dataclass
class Waiter:
    index: int
    kind: str  # "poll" or "sse"
    game: str
    token: str | None
    after: int


def _request(path: str, token: str | None, version: str, extra: str = "") -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    keep = "" if version == "1.0" else "Connection: keep-alive\r\n"
    return f"GET {path} HTTP/{version}\r\nHost: bench\r\n{auth}{keep}{extra}\r\n".encode()


async def _headers(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
    return status, headers


class Client:
    """One client process's waiters, their records and errors."""

    def __init__(self, host: str, port: int, waiters: list[Waiter], stream_seconds: int) -> None:
        self.host, self.port = host, port
        self.waiters = waiters
        self.stream_seconds = stream_seconds
        self.records: list[tuple[int, str, int, float]] = []  # waiter, game, version, received (epoch s)
        self.errors: list[str] = []
        self.opened = 0
        self.stopping = False

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection(self.host, self.port, limit=1 << 20)

    async def poll(self, w: Waiter, gate: asyncio.Semaphore) -> None:
        after, first = w.after, True
        async with gate:
            reader, writer = await self._connect()
        while not self.stopping:
            try:
                writer.write(_request(f"/v1/games/{w.game}/events?after={after}&wait=30", w.token, "1.1"))
                await writer.drain()
                if first:
                    self.opened += 1
                    first = False
                status, headers = await _headers(reader)
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                now = time.time()
                if status != 200:
                    self.errors.append(f"poll {status}: {body[:200]!r}")
                    await asyncio.sleep(1)
                    continue
                page = json.loads(body)
                for e in page["events"]:
                    self.records.append((w.index, w.game, e["version"], now))
                after = page["next_after"]
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                    reader, writer = await self._connect()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                if self.stopping:
                    return
                self.errors.append(f"poll connection: {exc!r}")
                await asyncio.sleep(0.5)
                reader, writer = await self._connect()

    async def sse(self, w: Waiter, gate: asyncio.Semaphore) -> None:
        last, first = w.after, True
        while not self.stopping:
            try:
                async with gate:
                    reader, writer = await self._connect()
                path = f"/v1/games/{w.game}/events/stream?max_seconds={self.stream_seconds}"
                writer.write(_request(path, w.token, "1.0", f"Last-Event-ID: {last}\r\n"))
                await writer.drain()
                status, _ = await _headers(reader)
                if status != 200:
                    body = await reader.read(300)
                    self.errors.append(f"sse {status}: {body!r}")
                    await asyncio.sleep(1)
                    continue
                msg: dict[str, str] = {}
                while True:
                    line = await reader.readline()
                    if not line:
                        break  # the stream ended: reconnect with Last-Event-ID
                    text = line.decode().rstrip("\n")
                    if text.startswith(":"):
                        if first:
                            self.opened += 1
                            first = False
                        continue
                    if text:
                        k, _, v = text.partition(":")
                        msg[k] = v[1:] if v.startswith(" ") else v
                        continue
                    if "id" in msg and "data" in msg:
                        last = int(msg["id"])
                        self.records.append((w.index, w.game, last, time.time()))
                    msg = {}
                writer.close()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                if self.stopping:
                    return
                self.errors.append(f"sse connection: {exc!r}")
                await asyncio.sleep(0.5)

    async def run(self, control: Any, stop: Any) -> None:
        gate = asyncio.Semaphore(64)  # connect a few at a time: the listen backlog is finite
        tasks = [asyncio.create_task(self.poll(w, gate) if w.kind == "poll" else self.sse(w, gate))
                 for w in self.waiters]
        reported = False
        while not stop.is_set():
            if not reported and self.opened >= len(self.waiters):
                control.put(("open", len(self.waiters)))
                reported = True
            await asyncio.sleep(0.05)
        self.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def client_main(host: str, port: int, waiters: list[Waiter], stream_seconds: int, control: Any, stop: Any,
                results: Any) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets per client
    c = Client(host, port, waiters, stream_seconds)
    asyncio.run(c.run(control, stop))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results.put({"records": [(r[0], r[1], r[2], r[3]) for r in c.records], "errors": c.errors,
                 "cpu_seconds": usage.ru_utime + usage.ru_stime})
