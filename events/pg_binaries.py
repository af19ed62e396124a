"""Finding PostgreSQL server binaries for the embedded server (see events/embedded.py).

The system's ``initdb``/``pg_ctl``/``postgres`` (``$FACEDOWN_PG_BINDIR``, ``PATH``,
``pg_config --bindir``, ``/usr/lib/postgresql/*/bin``, ...) if present, else the binaries
shipped inside the ``pgserver`` wheel (its files only, never its Python API).
"""
from __future__ import annotations

import glob
import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path


class EmbeddedPostgresError(RuntimeError):
    """The private server could not be created, started or stopped."""


# --------------------------------------------------------------------------- binaries


def pg_major(bindir: Path) -> int:
    argv = [str(bindir / "postgres"), "--version"]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+)(?:\.\d+)?", out)
    if not m:
        raise EmbeddedPostgresError(f"cannot parse postgres version: {out!r}")
    return int(m.group(1))


def is_complete(d: Path) -> bool:
    return all(os.access(d / exe, os.X_OK) for exe in ("initdb", "pg_ctl", "postgres"))


def _candidate_bindirs() -> list[Path]:
    """Directories holding initdb+pg_ctl+postgres, best first, without duplicates."""
    found: list[Path] = []

    def add(d: str | Path | None) -> None:
        if not d:
            return
        p = Path(d).resolve()
        if p not in found and is_complete(p):
            found.append(p)

    env = os.environ.get("FACEDOWN_PG_BINDIR")
    if env:
        if not is_complete(Path(env)):
            raise EmbeddedPostgresError(f"FACEDOWN_PG_BINDIR={env} lacks initdb/pg_ctl/postgres")
        add(env)
        return found
    exe = shutil.which("initdb")
    if exe:
        add(Path(exe).resolve().parent)
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            argv = [pg_config, "--bindir"]
            out = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=10)
            add(out.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass

    def version_key(path: str) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", path)) or (0,)

    for pattern in (
        "/usr/lib/postgresql/*/bin",
        "/usr/pgsql-*/bin",
        "/usr/local/pgsql/bin",
        "/opt/homebrew/opt/postgresql@*/bin",
        "/usr/local/opt/postgresql@*/bin",
        "/opt/homebrew/bin",
        "/Applications/Postgres.app/Contents/Versions/*/bin",
    ):
        for d in sorted(glob.glob(pattern), key=version_key, reverse=True):
            add(d)
    wheel = _pgserver_bindir()
    if wheel:
        add(wheel)
    return found


def _pgserver_bindir() -> Path | None:
    """The bin dir inside the installed pgserver wheel, located WITHOUT importing pgserver."""
    try:
        spec = importlib.util.find_spec("pgserver")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        d = Path(loc) / "pginstall" / "bin"
        if is_complete(d):
            return d
    return None


_MAJOR_CACHE: dict[Path, int] = {}


def find_bindir(want_major: int | None = None) -> Path:
    """The directory of the server binaries to use (matching ``want_major`` if given)."""
    cands = _candidate_bindirs()
    if not cands:
        raise EmbeddedPostgresError(
            "no PostgreSQL server binaries found: install the system 'postgresql' package or "
            "`pip install pgserver`, or set DATABASE_URL / FACEDOWN_PG_BINDIR"
        )
    if want_major is None:
        return cands[0]
    for d in cands:
        if d not in _MAJOR_CACHE:
            _MAJOR_CACHE[d] = pg_major(d)
        if _MAJOR_CACHE[d] == want_major:
            return d
    raise EmbeddedPostgresError(
        f"the data directory was created by PostgreSQL {want_major}, but only versions "
        f"{sorted(set(_MAJOR_CACHE.values()))} are installed ({[str(c) for c in cands]})"
    )
