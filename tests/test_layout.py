"""The layout holds: the benchmarks and the reliability check stay in their packages (tools that
use each other, loaded by nothing that serves players), and modules stay small."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 420  # "modules under ~400 lines"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


TOOLS = (("service", "tools", "bench"), ("service", "tools", "check"))


def _tooling(name: str) -> bool:
    return name.startswith(("service.tools.bench", "service.tools.check")) or name == "events.bench_sql"


def test_no_module_outside_the_tool_packages_imports_them_but_the_cli_that_lists_them() -> None:
    offenders = []
    for path in sorted((ROOT / "service").rglob("*.py")) + sorted((ROOT / "events").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[:3] in TOOLS or rel == Path("service/entrypoints/cli.py"):
            continue
        bad = {n for n in _imports(path) if _tooling(n)}
        if bad:
            offenders.append(f"{rel}: {sorted(bad)}")
    assert offenders == []


def test_no_bench_module_lives_outside_the_bench_package() -> None:
    stray = [str(p.relative_to(ROOT)) for d in ("service", "events", "domain") for p in (ROOT / d).rglob("*bench*.py")
             if p.relative_to(ROOT).parts[:3] != ("service", "tools", "bench") and p.name != "bench_sql.py"]
    assert stray == []


def test_the_served_app_loads_no_benchmark_code() -> None:
    code = ("import sys, service.http.app, service.http.routes.games, service.entrypoints.serve\n"
            "print(sorted(m for m in sys.modules if m.startswith(('service.tools.bench', 'service.tools.check'))"
            " or m == 'events.bench_sql'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_modules_of_the_service_stay_small() -> None:
    big = {str(p.relative_to(ROOT)): n for p in (ROOT / "service").rglob("*.py")
           if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert big == {}


def test_the_benchmark_report_writes_at_the_top_of_the_repository() -> None:
    """``bench report`` regenerates the BENCHMARKS.md that the repository holds (after the move
    into service/bench/ it once wrote a stray copy under service/)."""
    from service.tools.bench import report

    assert (report.ROOT / "pyproject.toml").is_file() and (report.ROOT / "BENCHMARKS.md").is_file()
