"""The README's curl block runs as written (bash, with API set) against a live server: it plays
its game to the end whichever seat the deal awaits first, and a refused command stops it with
the problem shown."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.service.helpers import Live

ROOT = Path(__file__).resolve().parents[2]
#: a random game of least score to 50 by four seats took 50 to 160 commands (5 to 11 rounds),
#: each three curl and two jq processes: 6 to 26 s on 2 busy cores; the bound only keeps a
#: script that never ends from hanging the suite
TIMEOUT = 180


def readme_script() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## A game played with curl"):]
    blocks = re.findall(r"^```sh\n(.*?)^```$", section, re.S | re.M)
    assert blocks, "the README's curl section has no sh block"
    return str(blocks[0])


def run(script: str, api: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", script], env={**os.environ, "API": api}, capture_output=True, text=True,
                          timeout=TIMEOUT)


def documents(output: str) -> list[Any]:
    """The JSON values that the script printed, in order."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while (at := output.find("{", at)) >= 0:
        value, at = decoder.raw_decode(output, at)
        values.append(value)
    return values


def test_the_readmes_curl_block_plays_its_game_to_the_end(live: Live) -> None:
    done = run(readme_script(), live.url)
    assert done.returncode == 0, done.stderr
    view, answer, *_, outcome = documents(done.stdout)
    # the single command was sent as the seat the game awaited (ann's or not: the deal decides)
    # and accepted: its events, the first one that seat's
    assert view["awaiting"] and isinstance(answer["version"], int) and answer["events"][0]["actor"] == view["awaiting"][0]
    assert outcome["status"] == "finished" and outcome["secret"]


def test_a_refused_command_stops_the_readmes_script_with_its_problem_shown(live: Live) -> None:
    script = readme_script()
    first = "jq -c '.legal_actions[0]'"
    assert script.count(first) == 1
    done = run(script.replace(first, """jq -c '{type: "Nonsense"}'"""), live.url)
    assert done.returncode != 0
    assert "next_after" not in done.stdout  # the script stopped there: it never read the events
    problem = json.loads(done.stderr[done.stderr.index("{"):])
    assert problem["status"] == 422 and problem["type"].startswith("/problems/")
