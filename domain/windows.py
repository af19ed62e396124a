"""Reaction-window helpers shared by the snap/match games (Corte, 4 Cartas).

Only public checks live here: whether a claim may name a
window, and where a penalty card may go. None of these functions reads a hidden card,
so a ruleset can run them all before it looks at the claimed card.
"""
from __future__ import annotations

from domain.errors import InvalidCommand, NoWindow, StaleWindow
from domain.table import Layout, Window

NEW_SLOT = "new"
EMPTY_PREFIX = "empty:"


def require_window(window: Window | None, window_id: int, *, in_power: bool = False,
                   passed_by: int | None = None, reject_won: bool = False) -> Window:
    """The current window if a claim may name ``window_id``, else its 409 refusal.

    ``in_power``: a power is being resolved, so there is no current window.
    ``passed_by``: the claimant, refused if it already passed this (final) window.
    ``reject_won``: a won window refuses later claims instead of judging them late.
    """
    if in_power:
        raise NoWindow("no claim while a power is being resolved")
    if window is None:
        raise NoWindow("there is no current window")
    if window_id != window.id:
        raise StaleWindow(f"window {window_id} is not the current window ({window.id})")
    if passed_by is not None and passed_by in window.passed:
        raise StaleWindow("you passed on this window")
    if reject_won and window.won_by is not None:
        raise StaleWindow("this window was already won")
    return window


def penalty_choices(layout: Layout) -> list[str]:
    """Every legal ``penalty_to``: ``new``, then ``empty:<slot>`` per empty slot in slot order."""
    return [NEW_SLOT] + [EMPTY_PREFIX + s for s in layout.empty()]


def parse_penalty_to(layout: Layout, value: str) -> tuple[str, bool]:
    """``(slot, is_new)`` for a ``penalty_to`` value, or 422 if it names no empty own slot."""
    if value == NEW_SLOT:
        return next_slot(layout), True
    if value.startswith(EMPTY_PREFIX):
        slot = value[len(EMPTY_PREFIX):]
        if layout.has_slot(slot) and not layout.is_occupied(slot):
            return slot, False
    raise InvalidCommand(f"penalty_to must be 'new' or 'empty:<one of your empty slots>', not {value!r}")


def next_slot(layout: Layout) -> str:
    """The next ``E<k>`` slot name; O(1) when extra slots were added in order (the usual case)."""
    guess = f"E{len(layout.slots) - 3}"
    return guess if guess not in layout.slots and f"E{len(layout.slots) - 4}" in layout.slots + ("E0",) \
        else layout.next_extra_slot()


def occupied_slot(layout: Layout, slot: str, what: str = "slot") -> str:
    """``slot`` if it is an occupied slot of ``layout``, else 422."""
    if not layout.is_occupied(slot):
        raise InvalidCommand(f"{what} {slot!r} is not an occupied slot")
    return slot
