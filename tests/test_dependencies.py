"""`pip install -e .` (no extras) is enough for `facedown serve`: every module it may load imports
with only the distributions that facedown's own requirements bring in, although the test
extras have installed more beside them (gunicorn's gevent worker once needed `packaging`, which
only the test extras brought, and the quick start crashed on a fresh machine).

`.ci/run` checks the same for real, in a fresh venv with no extras; this test says which module
failed, in the suite's own venv."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
OURS = ("domain", "events", "service", "facedown_client")
#: the tools that only the test or bench extras need (imported by nothing that serves players)
NOT_SERVED = ("service.tools.bench", "service.tools.check")
#: what gunicorn loads by name for `facedown serve --worker-class gevent|gthread`
WORKERS = ("gunicorn.workers.ggevent", "gunicorn.workers.gthread")


def declared_closure(dist: str = "facedown") -> set[str]:
    """Every distribution that installing ``dist`` with no extras brings in (canonical names)."""
    seen: set[tuple[str, str]] = set()
    todo = [(dist, "")]
    while todo:
        name, extra = todo.pop()
        if (canonicalize_name(name), extra) in seen:
            continue
        seen.add((canonicalize_name(name), extra))
        for line in metadata.requires(name) or []:
            req = Requirement(line)
            if req.marker is not None and not req.marker.evaluate({"extra": extra}):
                continue
            todo += [(req.name, "")] + [(req.name, e) for e in req.extras]
    return {name for name, _ in seen}


def undeclared_modules() -> list[str]:
    """Top-level modules installed here by a distribution that facedown does not require."""
    allowed = declared_closure()
    return sorted(module for module, dists in metadata.packages_distributions().items()
                  if module not in OURS and not any(canonicalize_name(d) in allowed for d in dists))


# Run in a fresh interpreter: modules the undeclared distributions provide cannot be found there,
# as on a machine where only `pip install -e .` ran; then every served module is imported.
_IMPORT_ALL = """
import importlib, importlib.abc, importlib.util, json, pkgutil, sys

blocked, ours, skip, workers = json.loads(sys.argv[1])

class Undeclared(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (not a declared dependency)", name=name)
        return None

sys.meta_path.insert(0, Undeclared())
# where a module is not installed, asking whether it is answers None (yarl, under pywebpush's
# aiohttp, asks so for pydantic_core), and only importing it fails
_find_spec = importlib.util.find_spec
importlib.util.find_spec = lambda name, package=None: (
    None if name.partition(".")[0] in blocked else _find_spec(name, package))

def modules(package):
    yield package.__name__
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.name.startswith(tuple(skip)):
            continue
        if info.ispkg:
            yield from modules(importlib.import_module(info.name))
        else:
            yield info.name

failed = {}
names = []
for top in ours:
    try:
        names += list(modules(importlib.import_module(top)))
    except Exception as e:
        failed[top] = repr(e)
for name in names + workers:
    try:
        importlib.import_module(name)
    except Exception as e:
        failed[name] = repr(e)
print(json.dumps({"imported": len(names) + len(workers) - len(failed), "failed": failed}))
"""


def test_every_module_that_serves_players_imports_with_the_declared_dependencies_alone() -> None:
    blocked = undeclared_modules()
    # the check can fail: the test extras do install modules that facedown does not declare
    assert "pytest" in blocked and "hypothesis" in blocked
    out = subprocess.run([sys.executable, "-c", _IMPORT_ALL, json.dumps([blocked, OURS, NOT_SERVED, WORKERS])],
                         capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    result = json.loads(out.stdout)
    assert result["failed"] == {}
    assert result["imported"] > 100  # the walk found the packages (about 160 modules)
