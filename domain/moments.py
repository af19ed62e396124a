"""The moments of a game in the words of the rules pages (docs/rules/), for refusals.

A command sent at the wrong moment is refused with what it needs and what the game waits
for now, as a player reads them on the rules page ("At the start of your turn", "Holding
the drawn card", "The initial peek"), never with the name of a state (``HOLDING``,
``AWAIT_ACTION``). Every moment named is public: whether the player to move holds a drawn
card, which power is being used, never a card.

The phases and the first two steps of a turn have the same names in every ruleset; each
ruleset adds the words of its own steps (its powers) with :class:`Moments`; :func:`no_turn`
refuses a turn command in a phase with no turns.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from domain.errors import WrongPhase

#: What the game is doing in each phase, when no turn can be played.
PHASES: Mapping[str, str] = {
    "SETUP": "the round is not dealt yet", "ROUND_SETUP": "the round is not dealt yet",
    "INITIAL_PEEK": "it is the initial peek (turns begin when every player has chosen their two cards)",
    "FINAL_WINDOW": "the turns are over and the final window is open", "REVEAL": "the round is over",
    "GAME_OVER": "the game is over",
}
#: When a command of each step is played (after "this command is played").
_NEEDS: Mapping[str, str] = {"AWAIT_ACTION": "at the start of your turn, before you draw",
                             "HOLDING": "with the card you drew in hand"}
#: What the turn waits for in each step.
_NOW: Mapping[str | None, str] = {"AWAIT_ACTION": "you hold no drawn card: draw first",
                                  "HOLDING": "you hold the card you drew: play it first"}


@dataclass(frozen=True, slots=True)
class Moments:
    """A ruleset's words for the steps of its turn, beside the common ones."""

    needs: Mapping[str, str] = field(default_factory=dict)  # step -> when its commands are played
    now: Mapping[str | None, str] = field(default_factory=dict)  # step -> what the turn waits for

    def wrong_step(self, steps: Iterable[str], current: str | None) -> WrongPhase:
        """The refusal of a command of ``steps`` while the turn is in ``current``."""
        needs = " or ".join(self.needs.get(s) or _NEEDS[s] for s in steps)
        now = self.now.get(current) or _NOW.get(current) or "your turn is ending"
        return WrongPhase(f"this command is played {needs}; {now}")



def no_turn(phase: str, what: str = "no turn is played now") -> WrongPhase:
    """The refusal of a turn command (or of ``what``) in a phase with no turns."""
    return WrongPhase(f"{what}: {PHASES.get(phase, 'the round is between turns')}")
