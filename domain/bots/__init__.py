"""Bots: policies that see only a seat's view and its legal actions (bots never peek).

A policy is ``policy(view, actions, rng, must_act) -> action | None``: ``view`` is
``ruleset.view(state, seat)``, ``actions`` is ``ruleset.legal_actions(state, seat)``,
``must_act`` says whether the game waits for this seat (it is in ``awaiting``). A
policy returns a command one of ``actions`` allows (an entry may stand for many,
:mod:`domain.choices`), or ``None`` to let the moment pass (only when ``must_act`` is false).
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from domain.choices import pick_among

Policy = Callable[[Any, Sequence[Any], random.Random, bool], Any]

#: How often a random bot makes an optional (out-of-turn) claim or standing order when it may.
RANDOM_CLAIM_RATE = 0.05
#: Commands that never move the game on (standing orders): a seat the game waits for does something else.
STANDING = frozenset({"PlaceOrder", "CancelOrder"})


def random_policy(view: Any, actions: Sequence[Any], rng: random.Random, must_act: bool) -> Any:
    """A random command type, then a random command of that type (each command the entries of
    that type allow as likely as any other); optional claims and orders only now and then.

    Choosing the type first keeps a seat that must act from drowning in claims: a final
    window may list one ``Pass`` beside hundreds of rival claims.
    """
    if not actions:
        return None
    if not must_act and rng.random() >= RANDOM_CLAIM_RATE:
        return None
    kinds = sorted({a["type"] for a in actions})
    if must_act and rng.random() >= RANDOM_CLAIM_RATE and any(k not in STANDING for k in kinds):
        kinds = [k for k in kinds if k not in STANDING]  # a standing order only now and then
    kind = kinds[rng.randrange(len(kinds))]
    return pick_among([a for a in actions if a["type"] == kind], rng)


_GREEDY_MODULES = {
    "corte": "domain.bots.corte",
    "cuatro-cartas": "domain.bots.cuatro_cartas",
    "pedro": "domain.bots.pedro",
    "least-score": "domain.bots.least_score",
}

BOT_NAMES = ("random", "greedy")


def policy(ruleset_name: str, bot: str) -> Policy:
    """The policy called ``bot`` for the ruleset: ``random`` or ``greedy``."""
    if bot == "random":
        return random_policy
    if bot == "greedy":
        return importlib.import_module(_GREEDY_MODULES[ruleset_name]).greedy  # type: ignore[no-any-return]
    raise KeyError(bot)
