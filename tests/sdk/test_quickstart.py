"""The SDK's README quickstart, run as written, plays a game to the end."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.sdk.conftest import Served

README = Path(__file__).resolve().parents[2] / "clients" / "python" / "README.md"


def test_the_readme_bot_plays_a_whole_game(served: Served, tmp_path: Path) -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert code is not None
    assert len(code.group(1).strip().splitlines()) <= 20
    script = tmp_path / "quickstart.py"
    script.write_text(code.group(1))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "FACEDOWN_URL": served.url})
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"final scores: \[\d+, \d+\]", proc.stdout), proc.stdout
