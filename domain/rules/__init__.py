"""The registry of rulesets, by name."""
from __future__ import annotations

import importlib

from domain.ruleset import Ruleset

_MODULES = {
    "corte": "domain.rules.corte",
    "cuatro-cartas": "domain.rules.cuatro_cartas",
    "pedro": "domain.rules.pedro",
    "least-score": "domain.rules.least_score",
}


def names() -> list[str]:
    """Names of the rulesets whose module is present."""
    out = []
    for name, mod in _MODULES.items():
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise
            continue
        out.append(name)
    return out


_LOADED: dict[str, Ruleset] = {}


def get(name: str) -> Ruleset:
    """The ruleset called ``name``; ``KeyError`` if there is none."""
    ruleset = _LOADED.get(name)
    if ruleset is None:  # the service asks on every request: import once
        if name not in _MODULES:
            raise KeyError(name)
        ruleset = _LOADED[name] = importlib.import_module(_MODULES[name]).RULESET
    return ruleset
