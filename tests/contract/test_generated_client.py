"""openapi-python-client generates a whole client from openapi.yaml, and that client plays a game.

openapi-python-client is not in the test extra (its own dependencies would be pinned beside
schemathesis'); install it in any venv and point FACEDOWN_OPENAPI_PYTHON_CLIENT at it (or put it
on PATH): the generated client runs with that venv's Python. `.ci/run` does exactly that.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.contract.spec import SPEC
from tests.sdk.conftest import Served, facedown_serve

TOOL = os.environ.get("FACEDOWN_OPENAPI_PYTHON_CLIENT") or shutil.which("openapi-python-client")
# CI installs the tool (.ci/run), so there a missing tool is a failure, not a skip
pytestmark = pytest.mark.skipif(TOOL is None and not os.environ.get("CI"),
                                reason="openapi-python-client is not installed (set FACEDOWN_OPENAPI_PYTHON_CLIENT)")
PLAY = Path(__file__).resolve().parent / "generated" / "play_generated.py"


@pytest.fixture(scope="module")
def served(db_factory: object) -> Iterator[Served]:
    yield from facedown_serve(db_factory.new())  # type: ignore[attr-defined]


def test_the_generated_client_has_no_warning_but_the_yaml_document_and_plays_a_game(
        served: Served, tmp_path: Path) -> None:
    assert TOOL is not None
    out = tmp_path / "facedown_api"
    proc = subprocess.run([TOOL, "generate", "--path", str(SPEC), "--output-path", str(out), "--meta", "none"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = proc.stdout + proc.stderr
    warnings = [line for line in text.splitlines() if line.startswith("WARNING")]
    assert warnings == ["WARNING parsing GET /openapi.yaml within meta."], text
    python = Path(TOOL).resolve().parent / "python"
    played = subprocess.run([str(python), str(PLAY), served.url], capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert played.returncode == 0, played.stdout + played.stderr
    assert "finished after" in played.stdout
