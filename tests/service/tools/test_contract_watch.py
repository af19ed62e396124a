"""The tests' contract watch: each kind of answer checked its first 20 times, then one in 20,
and an answer off the contract reported."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from service.tools.contract.check import Contract
from tests.service import contract_watch
from tests.service.helpers import Live, serve


@pytest.fixture(scope="module")
def bare(db_factory: object) -> Iterator[Live]:
    """A server no watch is on already (the usual ``live`` has one of its own)."""
    yield from serve(db_factory.new())  # type: ignore[attr-defined]


def test_every_answer_of_a_kind_is_checked_up_to_twenty_then_one_in_twenty(
        bare: Live, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    real = Contract.response_errors

    def counting(self: Contract, method: str, path: str, *args: Any) -> list[str]:
        checked.append(path)
        return real(self, method, path, *args)

    monkeypatch.setattr(Contract, "response_errors", counting)
    with contract_watch.answers_checked(bare.url) as wrong:
        with requests.Session() as http:
            for _ in range(70):
                assert http.get(f"{bare.url}/v1/rulesets", timeout=10).status_code == 200
    assert len(checked) == 20 + 2 and not wrong  # the 40th and the 60th after the first 20


def test_an_answer_off_the_contract_is_reported(bare: Live, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Contract, "response_errors", lambda self, method, path, *a: [f"{method} {path}: wrong"])
    with contract_watch.answers_checked(bare.url) as wrong:
        requests.get(f"{bare.url}/v1/rulesets", timeout=10)
    assert [w.upper() for w in wrong] == ["GET /V1/RULESETS: WRONG"]
