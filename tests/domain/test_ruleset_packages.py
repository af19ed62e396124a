"""domain/rules/ holds one package per ruleset, and nothing outside a package imports its modules.

A ruleset's ``__init__`` re-exports what other code may use (RULESET, its commands, events,
state and the helpers tests call); every other module of the package is private to it, so it
can be split or renamed without touching the service, the bots or the tests.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from domain import rules

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "domain" / "rules"
SCANNED = ("domain", "events", "service", "tests")
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_modules(rules_dir: Path, root: Path) -> dict[str, Path]:
    """Every module inside a ruleset package but its ``__init__``, by dotted name -> package folder."""
    out = {}
    for package in sorted(p for p in rules_dir.iterdir() if (p / "__init__.py").is_file()):
        for path in package.rglob("*.py"):
            if path != package / "__init__.py":
                out[module_name(path, root)] = package
    return out


def named_modules(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every module ``path`` imports or may import, or names as a string.

    ``from a.b import c`` names both ``a.b`` and ``a.b.c`` (``c`` may be a submodule); a string
    that is a whole dotted name counts too (``importlib.import_module("a.b.c")``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    parts = module_name(path, root).split(".")
    package = parts if path.name == "__init__.py" else parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package[:len(package) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _DOTTED.fullmatch(node.value):
            yield node.lineno, node.value


def offences(root: Path, rules_dir: Path, scanned: tuple[str, ...]) -> list[str]:
    private = private_modules(rules_dir, root)
    found = []
    for top in scanned:
        for path in sorted((root / top).rglob("*.py")):
            for line, name in named_modules(path, root):
                owner = private.get(name)
                if owner is not None and owner not in path.parents:
                    found.append(f"{path.relative_to(root)}:{line} uses {name}")
    return found


def test_no_module_outside_a_ruleset_package_imports_one_of_its_modules() -> None:
    assert offences(ROOT, RULES, SCANNED) == []


def test_the_check_catches_every_way_of_reaching_a_private_module(tmp_path: Path) -> None:
    package = tmp_path / "domain" / "rules" / "game"
    package.mkdir(parents=True)
    for name in ("__init__.py", "view.py", "model.py", "decide.py"):
        (package / name).write_text("")
    (package / "decide.py").write_text("from domain.rules.game.model import State\nfrom . import view\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "from domain.rules.game import RULESET, State\n"   # the package itself: fine
        "from domain.rules.game.model import State\n"
        "from domain.rules.game import view\n"
        "import domain.rules.game.decide\n"
        "import importlib\n"
        "importlib.import_module('domain.rules.game.view')\n")
    found = offences(tmp_path, tmp_path / "domain" / "rules", ("domain", "tests"))
    assert found == [
        "tests/test_x.py:2 uses domain.rules.game.model",
        "tests/test_x.py:3 uses domain.rules.game.view",
        "tests/test_x.py:4 uses domain.rules.game.decide",
        "tests/test_x.py:6 uses domain.rules.game.view",
    ]


def test_the_rules_folder_holds_only_ruleset_packages_and_the_registry() -> None:
    entries = {p.name for p in RULES.iterdir() if p.name != "__pycache__"}
    packages = {p.name for p in RULES.iterdir() if (p / "__init__.py").is_file()}
    assert entries - packages == {"__init__.py"}
    assert sorted(rules._MODULES.values()) == sorted(f"domain.rules.{p}" for p in packages)


def test_each_ruleset_package_states_its_rules_and_exports_its_ruleset() -> None:
    for name in rules.names():
        ruleset = rules.get(name)
        module = __import__(rules._MODULES[name], fromlist=["RULESET"])
        assert module.RULESET is ruleset
        assert "RULESET" in module.__all__
        assert module.__doc__ and len(module.__doc__.splitlines()) > 10, f"{name}: the rules in brief"
