"""The server's VAPID key pair (RFC 8292): made at the first start, kept in the database, the
same in every process. The push sender signs with it; ``GET /v1/push/vapid-key`` shows its
public half, which a browser gives as ``applicationServerKey`` when it subscribes."""
from __future__ import annotations

import threading

from events import reach
from service.adapters.push import VapidKey
from service.usecases.dependencies import Dependencies

_lock = threading.Lock()
_EXTENSION = "vapid_key"


def server_key(deps: Dependencies) -> VapidKey:
    """The kept key pair (made and kept now if there is none yet: the first process to keep
    one wins, and every process reads that one back). Remembered for the app's life."""
    with _lock:
        known = deps.memo.get(_EXTENSION)
        if known is None:
            public, private = VapidKey.generate().stored()
            known = VapidKey.from_stored(*reach.vapid_key(deps.db, public, private, deps.clock()))
            deps.memo[_EXTENSION] = known
        return known  # type: ignore[no-any-return]
