"""The audit: exports, offline verification, timelines and point-in-time views, a sibling of
the use cases. Pure but for reading a game's log from the store (standard library, ``domain``,
``events`` for the log's form and hashes, ``service.model``), so that ``facedown audit
verify`` needs no server or database; ``service.http.routes.audit`` serves it."""
