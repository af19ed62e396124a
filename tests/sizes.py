"""Sweeps in two sizes: the short form that every run has, and the full form, marked ``long``.

``pytest`` (the README's command, and CI's) runs the short forms; ``pytest -m long`` runs the
full ones, the sizes these checks were written at. A short form still cycles through every
player count or option its sweep names; it only plays fewer seeds of each.
"""
from __future__ import annotations

from typing import Any

import pytest


def sized(short: int, full: int) -> list[Any]:
    """Parameters of a sweep's size: ``short`` by default, ``full`` under the marker ``long``."""
    return [pytest.param(short, id=f"short{short}"),
            pytest.param(full, id=f"full{full}", marks=pytest.mark.long)]
