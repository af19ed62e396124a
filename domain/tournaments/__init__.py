"""Tournaments, pure rules: pairing rounds (Swiss and round robin), points per table and per
duplicate board, byes, and standings with their tie-breaks. No I/O; the service stores the
rounds and asks these functions what comes next.

In brief (each module's docstring says why):

- ``swiss_pairing``: byes to the lowest with the fewest byes; tables with the fewest repeated
  meetings, then closest to the order (top players together); seats shared out.
- ``round_robin_pairing`` / ``round_robin_rounds``: circle method at two seats (every pair once,
  a bye a round when odd); a greedy fewest-repeats schedule at more seats, long enough for every
  pair to meet at least once.
- ``table_points``: last 0, one more a place above, ties share. ``board_matchpoints``: a seat
  against the same seat at every other table, 1 per table beaten, 0.5 per tie.
- ``bye_points``: the round's average.
- ``standings``: points, then Buchholz, wins, head-to-head, rating, player id.
"""
from __future__ import annotations

from domain.tournaments.model import Pairing, RoundRecord, Standing, TableResult
from domain.tournaments.points import board_matchpoints, bye_points, table_points
from domain.tournaments.round_robin import round_robin_pairing, round_robin_rounds
from domain.tournaments.standings import standings
from domain.tournaments.swiss import swiss_pairing

__all__ = ["Pairing", "RoundRecord", "Standing", "TableResult", "board_matchpoints", "bye_points",
           "round_robin_pairing", "round_robin_rounds", "standings", "swiss_pairing", "table_points"]
