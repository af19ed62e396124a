"""The layout holds: the layers of service/ as pyproject.toml declares them for import-linter,
no project import hidden inside a function of served code, the tools loaded by nothing that
serves players, and modules that stay small."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400  # "modules under 400 lines"
#: packages whose modules are held to MAX_LINES
SMALL = ("service", "domain", "events")
#: the project's own packages: an import of one of them is a project import
OURS = ("service", "domain", "events", "facedown_client")
#: code that may import inside a function: the process entry points (gevent must patch the
#: standard library before anything imports psycopg; each command loads only what it needs)
#: and the operator tools
LAZY = (("service", "entrypoints"), ("service", "tools"))


def test_the_import_contracts_of_pyproject_toml_are_kept() -> None:
    """`lint-imports` (import-linter) checks every contract of ``[tool.importlinter]``: the
    layers of service/, nothing served importing the tools, the model and the use cases free
    of the web framework, the model free of I/O."""
    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint), "--no-cache"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def _imports_inside_functions(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            names = []
            if isinstance(inner, ast.Import):
                names = [a.name for a in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                names = [inner.module or ""] if inner.level == 0 else ["." * inner.level + (inner.module or "")]
            found += [f"{path.relative_to(ROOT)}:{inner.lineno} {n}" for n in names
                      if n.startswith(".") or n.partition(".")[0] in OURS]
    return found


def test_no_served_module_imports_a_module_of_the_project_inside_a_function() -> None:
    """An import inside a function hides a dependency from the reader and from import-linter's
    order (it once hid two cycles); only the entry points and the tools import lazily."""
    served = [p for p in sorted((ROOT / "service").rglob("*.py")) if p.relative_to(ROOT).parts[:2] not in LAZY]
    assert served, "no served module found"
    assert [hit for p in served for hit in _imports_inside_functions(p)] == []


def test_the_check_of_imports_inside_functions_finds_one() -> None:
    """The check above can fail: it finds a project import inside a function."""
    sample = ROOT / "tests" / "_layout_sample.py"
    sample.write_text("def f():\n    from service.model import game\n    import json\n")
    try:
        assert [h.split(" ")[1] for h in _imports_inside_functions(sample)] == ["service.model"]
    finally:
        sample.unlink()


def test_no_bench_module_lives_outside_the_bench_package() -> None:
    stray = [str(p.relative_to(ROOT)) for d in ("service", "events", "domain") for p in (ROOT / d).rglob("*bench*.py")
             if p.relative_to(ROOT).parts[:3] != ("service", "tools", "bench") and p.name != "bench_sql.py"]
    assert stray == []


def test_the_served_app_loads_no_tool_code() -> None:
    code = ("import sys, service.http.app, service.entrypoints.serve\n"
            "print(sorted(m for m in sys.modules if m.startswith('service.tools') or m == 'events.bench_sql'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_modules_stay_small() -> None:
    big = {str(p.relative_to(ROOT)): n for d in SMALL for p in (ROOT / d).rglob("*.py")
           if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert big == {}


def test_service_has_few_loose_modules_at_its_top() -> None:
    """Everything lives in its layer; at most 8 modules beside the layers' packages."""
    loose = sorted(p.name for p in (ROOT / "service").glob("*.py"))
    assert len(loose) <= 8, loose


def test_the_benchmark_report_writes_at_the_top_of_the_repository() -> None:
    """``bench report`` regenerates the BENCHMARKS.md that the repository holds (after the move
    into service/bench/ it once wrote a stray copy under service/)."""
    from service.tools.bench import report

    assert (report.ROOT / "pyproject.toml").is_file() and (report.ROOT / "BENCHMARKS.md").is_file()
