"""Canonical JSON and the hash chain, shared by the store, the audit and offline verify.

An event's hash is ``sha256(prev_hash || version as 8-byte big-endian signed ||
canonical)`` where ``canonical`` is the UTF-8 of the compact JSON (sorted keys,
separators ``,`` ``:``, no ASCII escaping) of ``{"type", "schema_version", "data",
"metadata"}``. The first event's ``prev_hash`` is 32 zero bytes. The stream's head is
the last event's hash. This module needs only the standard library so that a third
party can check an exported game with nothing else.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = b"\x00" * 32


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_body(type_: str, schema_version: int, data: Any, metadata: Any) -> str:
    return canonical({"type": type_, "schema_version": schema_version, "data": data, "metadata": metadata})


def chain_hash(prev: bytes, version: int, body: str) -> bytes:
    return hashlib.sha256(prev + version.to_bytes(8, "big", signed=True) + body.encode("utf-8")).digest()
