"""Webhooks and their outbox (reference tables) on the cluster."""
from tests.service.test_webhooks import *  # noqa: F401,F403 - the same tests, on the cluster
