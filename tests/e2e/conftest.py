"""The end-to-end tests use the same live API server fixture as tests/service (one per module)."""
from __future__ import annotations

from tests.service.conftest import live  # noqa: F401 - a fixture, found by pytest by its name
