"""The web client's service worker keeps its whole shell: every module, every catalog and every
file the page loads is in the list it caches (a file left out would be missing offline), and
nothing listed is missing from the package."""
from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "service" / "http" / "web" / "static"


def _shell() -> list[str]:
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const SHELL = \[(.*?)\];", text, re.S)
    assert listed, "sw.js has no SHELL list"
    return re.findall(r'"([^"]+)"', listed.group(1))


def test_the_shell_lists_every_module_and_catalog_and_only_files_that_exist() -> None:
    shell = _shell()
    assert len(shell) == len(set(shell))
    wanted = {f"/web/js/{m.name}" for m in (STATIC / "js").glob("*.js")}
    wanted |= {f"/web/i18n/{c.name}" for c in (STATIC / "i18n").glob("*.json")}
    wanted |= {"/", "/web/app.css", "/web/manifest.webmanifest", "/web/icon.svg", "/web/icon-waiting.svg"}
    assert set(shell) == wanted, sorted(set(shell) ^ wanted)
    for path in shell:
        assert path == "/" or (STATIC / path.removeprefix("/web/")).is_file(), path

