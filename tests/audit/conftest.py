"""Fixtures of the audit tests."""
from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def new_client(make_app: Any) -> Any:
    """``new_client()``: the test client of a new app (a worker with a cold cache)."""
    return lambda: make_app().test_client()
