"""A Server-Sent Events client on a thread, for tests: every message and comment, timed."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests


@dataclass
class Stream:
    """An SSE client on a thread: every message and comment, with the time it arrived."""

    url: str
    headers: dict[str, str]
    params: dict[str, Any]
    status: int = 0
    content_type: str = ""
    messages: list[dict[str, Any]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    opened: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    body: str = ""

    def start(self) -> Stream:
        threading.Thread(target=self._run, daemon=True).start()
        assert self.opened.wait(10), "the stream did not open"
        return self

    def _run(self) -> None:
        try:
            with requests.get(self.url, headers=self.headers, params=self.params, stream=True, timeout=30) as r:
                self.status, self.content_type = r.status_code, r.headers.get("Content-Type", "")
                if r.status_code != 200:
                    self.body = r.text
                    self.opened.set()
                    return
                buf, fields_ = "", {}
                for chunk in r.iter_content(chunk_size=None, decode_unicode=True):
                    buf += chunk
                    while "\n" in buf:
                        line, buf = buf.split("\n", 1)
                        if line == "":
                            if fields_:
                                self.messages.append({**fields_, "received": time.monotonic()})
                            fields_ = {}
                        elif line.startswith(":"):
                            self.comments.append(line[1:].strip())
                            self.opened.set()
                        else:
                            name, _, value = line.partition(":")
                            fields_[name] = value[1:] if value.startswith(" ") else value
        finally:
            self.opened.set()
            self.ended.set()

    def _first(self, match: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any] | None:
        """The first message that ``match``es, waiting up to ``timeout`` s for it to come."""
        deadline = time.monotonic() + timeout
        while True:
            got = next((m for m in list(self.messages) if match(m)), None)
            if got is not None or time.monotonic() >= deadline:
                return got
            time.sleep(0.01)

    def first_data(self, timeout: float = 15) -> dict[str, Any]:
        """The first message with data, once it has come. An account stream opens with a
        comment and only then reads the inbox it sends first: news of a command sent before
        that arrives is part of the inbox, not a message of its own."""
        got = self._first(lambda m: "data" in m, timeout)
        if got is None:
            raise AssertionError(f"no message with data within {timeout} s")
        return got

    def ids(self) -> list[int]:
        return [int(m["id"]) for m in self.messages if "id" in m]

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(m["data"]) for m in self.messages if "data" in m]

    def wait_for(self, version: int, timeout: float) -> float | None:
        """When the first message of ``version`` or later came, or None if none within ``timeout`` s."""
        got = self._first(lambda m: int(m.get("id", -1)) >= version, timeout)
        return None if got is None else float(got["received"])
