"""openapi-python-client generates a whole client from openapi.yaml, and that client plays a game.

openapi-python-client is not in the test extra (its own dependencies would be pinned beside
schemathesis'); install it in any venv and point FACEDOWN_OPENAPI_PYTHON_CLIENT at it (or put it
on PATH): the generated client runs with that venv's Python. `.ci/run` does exactly that.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from service.tools.contract.spec import SPEC
from tests.sdk.conftest import Served, facedown_serve
from tests.support.spec import document

TOOL = os.environ.get("FACEDOWN_OPENAPI_PYTHON_CLIENT") or shutil.which("openapi-python-client")
# CI installs the tool (.ci/run), so there a missing tool is a failure, not a skip
pytestmark = pytest.mark.skipif(TOOL is None and not os.environ.get("CI"),
                                reason="openapi-python-client is not installed (set FACEDOWN_OPENAPI_PYTHON_CLIENT)")
PLAY = Path(__file__).resolve().parent / "generated" / "play_generated.py"


@pytest.fixture(scope="module")
def served(db_factory: object) -> Iterator[Served]:
    yield from facedown_serve(db_factory.new())  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Generated:
    package: Path  # the generated package, facedown_api
    output: str  # what the tool printed


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    assert TOOL is not None
    out = tmp_path_factory.mktemp("client") / "facedown_api"
    proc = subprocess.run([TOOL, "generate", "--path", str(SPEC), "--output-path", str(out), "--meta", "none"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return Generated(out, proc.stdout + proc.stderr)


#: what the generator cannot make, on purpose: the contract document itself (YAML), and a witness's
#: cosignature, whose body is a signed note's text as C2SP tlog-cosignature writes it (witnesses post
#: it with `facedown witness`, not through a generated client)
EXPECTED_WARNINGS = ["WARNING parsing GET /openapi.yaml within meta.",
                     "WARNING parsing POST /v1/log/cosignatures within audit. Endpoint will not be generated."]


def test_the_generated_client_has_no_warning_but_the_yaml_document_and_the_witness_post_and_plays_a_game(
        served: Served, generated: Generated) -> None:
    text = generated.output
    warnings = [line for line in text.splitlines() if line.startswith("WARNING")]
    assert warnings == EXPECTED_WARNINGS, text
    python = Path(TOOL).resolve().parent / "python"  # type: ignore[arg-type]
    played = subprocess.run([str(python), str(PLAY), served.url], capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(generated.package.parent)})
    assert played.returncode == 0, played.stdout + played.stderr
    assert "finished after" in played.stdout


def test_no_model_an_event_leads_to_is_a_bare_dict_or_holds_an_untyped_value(generated: Generated) -> None:
    """Every class reachable from an event's class (through the imports of its module) has
    typed fields: none is only ``additional_properties``, and no field is ``Any``."""
    models = generated.package / "models"
    sources = {p.stem: p.read_text() for p in models.glob("*.py") if p.stem != "__init__"}
    schemas = document()["components"]["schemas"]
    events = [_module(ref.rsplit("/", 1)[1]) for union in schemas["Event"]["anyOf"]
              for ref in schemas[union["$ref"].rsplit("/", 1)[1]]["discriminator"]["mapping"].values()]
    assert set(events) <= set(sources), sorted(set(events) - set(sources))
    todo, reached = list(events), set()
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo += IMPORT.findall(sources[module])
    loose = {m: problem for m in sorted(reached) if (problem := _loose(sources[m]))}
    assert loose == {}
    assert {"corte_options", "shuffle_reveal", "corte_revealed_order"} <= reached


def _module(schema: str) -> str:
    """The module openapi-python-client writes a schema's class in: ``CorteOptions`` -> ``corte_options``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", schema).lower()


IMPORT = re.compile(r"from \.\.models\.(\w+) import")
ENUM = re.compile(r"^class \w+\(\w*Enum\):", re.M)
FIELD = re.compile(r"^    (\w+): (.+?)(?: = .*)?$", re.M)


def _loose(source: str) -> str | None:
    """Why a generated model is loosely typed, if it is: a class of nothing but extra keys,
    or a field of type ``Any``."""
    if ENUM.search(source):
        return None
    fields = dict(FIELD.findall(source.split("\nclass ", 1)[1].split("def to_dict", 1)[0]))
    if fields.pop("additional_properties", None) is not None and not fields:
        return "only additional_properties"
    untyped = [name for name, hint in fields.items() if re.search(r"\bAny\b", hint)]
    return f"Any in {untyped}" if untyped else None
