"""Scale-out on Citus: which table is distributed by what, and the one-time distribution.

On a Citus coordinator (the ``citus`` extension in the database, with worker nodes added)
``facedown db upgrade`` applies the migrations and then :func:`distribute`; ``facedown db
distribute`` runs it alone. On plain PostgreSQL neither changes anything
(``docs/deployment-citus.md`` says why each table is placed where it is):

* every table of a stream (a game's, or a player's own log) is distributed by the stream id,
  all co-located: a game's events, head, snapshot, processed commands, secret, index row and
  seat rows sit in one shard group, so a command's append touches one node;
* each player's notifications (and their head) are distributed by the player id, co-located
  with the streams: a player's id is its own stream's id; so are what the notifications write
  beside them (the e-mail and push outboxes) and what that reads (the player's notification
  settings and push subscriptions);
* each player's ratings and their history are distributed by the player id, co-located with
  the streams, and a game's rating changes by the game's id;
* the tokens' last use (``token_usage``) is distributed by the token id;
* small tables read everywhere by other keys (players and handles, tokens, webhooks and their
  outbox, e-mail addresses and their verification tokens, the VAPID key) are reference
  tables, copied to every node;
* ``schema_migrations`` stays on the coordinator.

The append (``fd_append``) and the game's secret (``fd_put_secret``, ``fd_get_secret``) are
distributed functions whose distribution argument is the stream id: Citus runs each call on
the node holding that stream's shard, in one round trip from the coordinator.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from events.db import connect, translated
from events.errors import StoreError

log = logging.getLogger(__name__)
OWNER = "facedown_owner"
ANCHOR = "streams"  # the table every co-located one follows
OVERRIDES = Path(__file__).resolve().parent.parent / "sql" / "citus" / "functions.sql"

# table -> its distribution column, "reference", or "local" (the coordinator's own)
PLAN: dict[str, str] = {
    "streams": "stream_id",
    "events": "stream_id",
    "processed_commands": "stream_id",
    "snapshots": "stream_id",
    "game_secrets": "stream_id",
    "game_index": "stream_id",
    "game_players": "stream_id",
    "notification_heads": "player_id",
    "notifications": "player_id",
    "players": "reference",
    "player_tokens": "reference",
    "token_usage": "token_id",
    "webhooks": "reference",
    "webhook_secrets": "reference",
    "webhook_deliveries": "reference",
    "webhook_attempts": "reference",
    "signin_codes": "reference",
    # reaching a player whose page is closed (sql/016, sql/017): what is the player's own and
    # written with their notifications sits in their shard group; what is found by another key
    # (an address, a token's digest) or is one row for the whole server is a reference table
    "player_emails": "reference",
    "email_tokens": "reference",
    "vapid_keys": "reference",
    "push_subscriptions": "player_id",
    "push_subscription_secrets": "player_id",
    "notification_settings": "player_id",
    "mail_outbox": "player_id",
    "mail_secrets": "player_id",
    "push_outbox": "player_id",
    "page_presence": "player_id",
    # the game chat (sql/050): a chat's messages and reports with its own stream (the chat's
    # stream id, derived from the game's), a player's mutes with the player's own stream
    "chat_messages": "stream_id",
    "chat_reports": "stream_id",
    "player_mutes": "player_id",
    # ratings (sql/030): a player's rating and history in the player's shard group, locked and
    # written by the append that ends a game (on the game's node, across nodes as notifications
    # are); a game's changes beside the game
    "ratings": "player_id",
    "rating_history": "player_id",
    "game_ratings": "stream_id",
    # transparency (sql/040): one server-wide log, its order, its key and its witnesses'
    # cosignatures, written by the append that finishes a game on whichever node holds it
    "log_keys": "reference",
    "log_entries": "reference",
    "log_head": "reference",
    "log_cosignatures": "reference",
    # tournaments (sql/060): a tournament's row with its own stream (written by its appends)
    "tournaments": "stream_id",
    "schema_migrations": "local",
}

# distributed functions: signature -> distribution argument (co-located with ANCHOR)
FUNCTIONS: dict[str, str] = {
    "fd_append(uuid, text, bigint, text, text, jsonb, text, bytea, boolean, jsonb)": "p_stream",
    "fd_put_secret(uuid, bytea)": "p_stream",
    "fd_get_secret(uuid)": "p_stream",
}


class NotCitus(RuntimeError):
    """The database is not a Citus coordinator with workers."""


def _one(conn: Any, query: str, params: tuple[Any, ...] = ()) -> Any:
    row = conn.execute(query, params).fetchone()
    return None if row is None else row[0]


def installed(conn: Any) -> bool:
    """Whether this database has the citus extension (a coordinator or a worker of a cluster)."""
    return bool(_one(conn, "SELECT count(*) FROM pg_extension WHERE extname = 'citus'"))


def workers(conn: Any) -> list[tuple[str, int]]:
    """(host, port) of the active primary nodes that hold shards, as the coordinator names them."""
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT nodename, nodeport FROM pg_dist_node WHERE isactive AND noderole = 'primary'"
        " AND shouldhaveshards AND groupid <> 0 ORDER BY nodeid")]


def is_coordinator(conn: Any) -> bool:
    """A Citus coordinator with at least one worker: where :func:`distribute` applies."""
    return installed(conn) and bool(_one(conn, "SELECT citus_is_coordinator()")) and bool(workers(conn))


def owner_may_log_in(conn: Any) -> None:
    """Citus runs the owner's statements on the workers through connections *as the owner*
    (distributed DDL, the SECURITY DEFINER functions' remote statements), so on a cluster the
    owner role must be able to log in (sql/008 made it NOLOGIN). It still has no password:
    the nodes authenticate one another (docs/deployment-citus.md)."""
    if installed(conn) and _one(conn, "SELECT NOT rolcanlogin FROM pg_roles WHERE rolname = %s", (OWNER,)):
        conn.execute(sql.SQL("ALTER ROLE {} LOGIN").format(sql.Identifier(OWNER)))


def placement(conn: Any) -> dict[str, str]:
    """table -> its distribution column, 'reference' or 'local', as the cluster has them now
    (the form of :data:`PLAN`)."""
    rows = conn.execute(
        "SELECT c.relname, p.partmethod, CASE WHEN p.partmethod = 'h'"
        " THEN column_to_column_name(p.logicalrelid, p.partkey) END"
        " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid"
        " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')").fetchall()
    out = {}
    for name, method, column in rows:
        out[name] = column if method == "h" else "reference" if method == "n" else "local"
    return out


def _triggers(conn: Any, table: str) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t"
        " WHERE t.tgrelid = %s::regclass AND NOT t.tgisinternal ORDER BY t.tgname", (table,))]


def _distribute_table(conn: Any, table: str, how: str) -> None:
    # Citus distributes no table with triggers: the append-only triggers (sql/001) are taken
    # off and put back on the distributed table, which gives them to every shard
    saved = _triggers(conn, table)
    for name, _ in saved:
        conn.execute(sql.SQL("DROP TRIGGER {} ON {}").format(sql.Identifier(name), sql.Identifier(table)))
    if how == "reference":
        conn.execute("SELECT create_reference_table(%s)", (table,))
    else:
        conn.execute("SELECT create_distributed_table(%s, %s, colocate_with => %s)",
                     (table, how, "default" if table == ANCHOR else ANCHOR))
    if saved:
        conn.execute("SET LOCAL citus.enable_unsafe_triggers = on")
        for _, definition in saved:
            conn.execute(definition)  # type: ignore[arg-type]


def distribute(url: str, shard_count: int | None = None, functions: bool = True) -> list[str]:
    """Distribute what is not yet (idempotent), put the Citus forms of the functions in place
    (when ``functions``, or when a table was distributed now), and make the append and the
    secret's functions distributed. Returns what it did."""
    done: list[str] = []
    with connect(url) as conn, translated():
        if not is_coordinator(conn):
            raise NotCitus("not a Citus coordinator with workers: create the citus extension on every node "
                           "and add the workers (citus_add_node) first")
        owner_may_log_in(conn)
        now = placement(conn)
        unplanned = sorted(set(now) - set(PLAN))
        if unplanned:
            raise NotCitus(f"tables without a place on Citus (add them to events/citus.py PLAN): {unplanned}")
        with conn.transaction():
            if shard_count:
                conn.execute(sql.SQL("SET LOCAL citus.shard_count = {}").format(sql.Literal(shard_count)))
            # the anchor first: every co-located table follows it
            for table in sorted(PLAN, key=lambda t: t != ANCHOR):
                how = PLAN[table]
                if how == "local" or table not in now or now[table] != "local":
                    continue
                _distribute_table(conn, table, how)
                done.append(f"{table}: {'reference' if how == 'reference' else 'by ' + how}")
            wrong = {t: (have, PLAN[t]) for t, have in placement(conn).items() if have != PLAN[t]}
            if wrong:  # placed otherwise by hand: facedown will not guess how to move it
                raise NotCitus(f"tables placed otherwise than planned (now, planned): {wrong}")
        if functions or done:
            with conn.transaction():
                conn.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(OWNER)))
                conn.execute(OVERRIDES.read_text())  # type: ignore[arg-type]
        for signature, argument in FUNCTIONS.items():
            if not _one(conn, "SELECT count(*) FROM pg_dist_object WHERE objid = %s::regprocedure::oid"
                              " AND distribution_argument_index IS NOT NULL", (signature,)):
                conn.execute("SELECT create_distributed_function(%s, %s, colocate_with => %s)",
                             (signature, argument, ANCHOR))
                done.append(f"{signature.split('(')[0]}: delegated by {argument}")
    return done


def node_urls(url: str) -> list[str]:
    """The URL, then the same credentials at every worker of the cluster (if it is a Citus
    coordinator): a listener on each hears the hints that appends running there send."""
    try:
        with connect(url) as conn, translated():
            nodes = workers(conn) if installed(conn) else []
    except StoreError as exc:  # a listener still listens on the URL itself
        log.warning("cannot list the cluster's nodes: %s", exc)
        return [url]
    params = conninfo_to_dict(url)
    return [url] + [make_conninfo(url, host=host, port=str(port))
                    for host, port in nodes if (host, str(port)) != (params.get("host"), str(params.get("port")))]
