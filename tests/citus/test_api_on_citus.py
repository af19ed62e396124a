"""The API's own tests, on the cluster (an in-process server on a fresh distributed database):
the game's flow and index, `/v1/me/games`, errors, idempotent retries, two seats racing for one
turn, long-polls woken by another seat's command, and rebuilding the read models."""
from tests.service.http.test_api_errors import *  # noqa: F401,F403 - the same tests, on the cluster
from tests.service.http.test_api_flow import *  # noqa: F401,F403
from tests.service.http.test_idempotency import *  # noqa: F401,F403
