"""The one thing ``facedown serve`` does before any other import when it runs the gevent worker."""
from __future__ import annotations


def patch_for_gevent() -> None:
    """Make the standard library cooperative before psycopg is imported: psycopg picks its
    wait function when it is first imported, and uses one that yields to gevent only if
    ``select`` is patched by then (psycopg 3.1.14 and later)."""
    from gevent import monkey

    monkey.patch_all()
