"""The service worker keeps the whole shell: every module of the web client is in its list, or
the page would not open offline (one missing import fails the entry module)."""
from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "service" / "http" / "web" / "static"


def test_the_service_worker_keeps_every_module_of_the_page() -> None:
    kept = set(re.findall(r'"(/web/js/[\w-]+\.js)"', (STATIC / "sw.js").read_text(encoding="utf-8")))
    modules = {f"/web/js/{p.name}" for p in (STATIC / "js").glob("*.js")}
    assert modules - kept == set(), sorted(modules - kept)
