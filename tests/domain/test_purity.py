"""domain/ stays pure: it imports only the standard library and itself."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_every_domain_module_imports_only_the_standard_library_and_domain() -> None:
    files = sorted(DOMAIN.rglob("*.py"))
    assert files, "no domain modules found"
    offenders = {}
    for path in files:
        bad = {r for r in imported_roots(path) if r != "domain" and r not in sys.stdlib_module_names
               and r != "__future__"}
        if bad:
            offenders[str(path.relative_to(DOMAIN.parent))] = sorted(bad)
    assert offenders == {}


def test_the_purity_check_would_catch_an_infrastructure_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import psycopg\nfrom flask import Flask\nfrom domain import cards\n")
    assert imported_roots(bad) - sys.stdlib_module_names - {"domain"} == {"psycopg", "flask"}
