"""Webhooks and their outbox (reference tables) on the cluster."""
from tests.service.helpers import Live
from tests.service.adapters.test_webhooks import *  # noqa: F401,F403 - the same tests, on the cluster
from tests.service.adapters.test_webhooks import (
    test_every_delivery_of_a_game_is_its_notification_exactly_and_names_no_card as _every_delivery)

# where a delivery is stored and claimed does not depend on the game's rules: on the cluster one
# ruleset's game (the suite on one server plays every ruleset's)
del test_every_delivery_of_a_game_is_its_notification_exactly_and_names_no_card  # noqa: F821
# which targets are refused is decided before anything is stored (and needed a second
# distributed database here): tried on one server only
del test_private_and_malformed_targets_are_refused_unless_allowed  # noqa: F821


def test_every_delivery_of_a_cuatro_cartas_game_is_its_notification_exactly_and_names_no_card(live: Live) -> None:
    _every_delivery(live, "cuatro-cartas")
