"""The bots' end-to-end tests, on the cluster: a game of every ruleset played to the end by
greedy seats through `facedown serve` pointed at the coordinator (the same moves as in-process,
then the audit's deals re-derived), and `facedown bot` playing every game of its players."""
from tests.e2e.test_bots_through_the_api import *  # noqa: F401,F403 - the same tests, on the cluster
