-- The event store: one stream per game, append-only, hash-chained.
-- Forward-only: never edit this file once shipped; add a new numbered file instead.

CREATE TABLE streams (
    stream_id   uuid        PRIMARY KEY,
    kind        text        NOT NULL DEFAULT 'game',
    version     bigint      NOT NULL DEFAULT 0,
    head        bytea       NOT NULL DEFAULT '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE events (
    stream_id      uuid        NOT NULL REFERENCES streams (stream_id),
    version        bigint      NOT NULL CHECK (version > 0),
    type           text        NOT NULL,
    schema_version int         NOT NULL DEFAULT 1,
    data           jsonb       NOT NULL,
    metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    -- the writing transaction: the global feed reads by it (see fd_feed below)
    tx_id          xid8        NOT NULL DEFAULT pg_current_xact_id(),
    prev_hash      bytea       NOT NULL,
    hash           bytea       NOT NULL,
    PRIMARY KEY (stream_id, version)
);
CREATE INDEX events_feed ON events (tx_id, stream_id, version);

-- (game, command id) -> the first result: an idempotent retry appends nothing.
CREATE TABLE processed_commands (
    stream_id     uuid   NOT NULL REFERENCES streams (stream_id),
    command_id    text   NOT NULL,
    request_hash  text,
    first_version bigint NOT NULL,
    last_version  bigint NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, command_id)
);

-- The folded state at the stream's head, written in the append's transaction.
-- A row whose fingerprint differs from the running code's is ignored and rebuilt.
CREATE TABLE snapshots (
    stream_id   uuid   PRIMARY KEY REFERENCES streams (stream_id),
    version     bigint NOT NULL,
    fingerprint text   NOT NULL,
    state       bytea  NOT NULL
);

-- Immutability: statement-level triggers refuse every UPDATE, DELETE and TRUNCATE of
-- events, even by the table owner or a superuser (rules that "DO INSTEAD NOTHING"
-- would silently swallow the write; a trigger that raises does not).
CREATE FUNCTION fd_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'facedown: % on % is forbidden: the event log is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();
CREATE TRIGGER processed_no_change BEFORE UPDATE OR DELETE ON processed_commands
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();
CREATE TRIGGER processed_no_truncate BEFORE TRUNCATE ON processed_commands
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();

-- Append N events in one call. Order of checks: take the per-game row lock (the only
-- lock: games never wait on each other), then the idempotency record, then the
-- expected version, all BEFORE anything is written. Each event's hash is
-- sha256(prev_hash || int8 version, big-endian || canonical UTF-8 JSON), where the
-- canonical text is computed by the caller (events/canonical.py) and covers type,
-- schema version, data and metadata.
-- p_events: [{"type", "schema_version", "data", "metadata", "canonical"}]
-- Returns status: 'appended' | 'duplicate' | 'stale' | 'conflict' (same command id,
-- another request), with the stream version and head after the call.
CREATE FUNCTION fd_append(
    p_stream uuid, p_kind text, p_expected bigint, p_command_id text, p_request_hash text,
    p_events jsonb, p_fingerprint text, p_snapshot bytea, p_notify boolean DEFAULT true
) RETURNS TABLE (status text, version bigint, head bytea, first_version bigint, last_version bigint)
LANGUAGE plpgsql AS $$
DECLARE
    cur_version bigint;
    cur_head    bytea;
    done        processed_commands%ROWTYPE;
    ev          jsonb;
    v           bigint;
    h           bytea;
    prev        bytea;
BEGIN
    IF p_expected = 0 THEN
        INSERT INTO streams (stream_id, kind) VALUES (p_stream, p_kind) ON CONFLICT DO NOTHING;
    END IF;
    SELECT s.version, s.head INTO cur_version, cur_head
        FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'stale'::text, -1::bigint, NULL::bytea, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF p_command_id IS NOT NULL THEN
        SELECT * INTO done FROM processed_commands pc
            WHERE pc.stream_id = p_stream AND pc.command_id = p_command_id;
        IF FOUND THEN
            RETURN QUERY SELECT
                CASE WHEN done.request_hash IS NOT DISTINCT FROM p_request_hash
                     THEN 'duplicate' ELSE 'conflict' END,
                cur_version, cur_head, done.first_version, done.last_version;
            RETURN;
        END IF;
    END IF;
    IF cur_version <> p_expected THEN
        RETURN QUERY SELECT 'stale'::text, cur_version, cur_head, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    v := cur_version;
    h := cur_head;
    FOR ev IN SELECT * FROM jsonb_array_elements(p_events) LOOP
        v := v + 1;
        prev := h;
        h := sha256(prev || int8send(v) || convert_to(ev->>'canonical', 'UTF8'));
        INSERT INTO events (stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
        VALUES (p_stream, v, ev->>'type', (ev->>'schema_version')::int, ev->'data', ev->'metadata', prev, h);
    END LOOP;
    UPDATE streams s SET version = v, head = h, updated_at = now() WHERE s.stream_id = p_stream;
    IF p_command_id IS NOT NULL THEN
        INSERT INTO processed_commands (stream_id, command_id, request_hash, first_version, last_version)
        VALUES (p_stream, p_command_id, p_request_hash, cur_version + 1, v);
    END IF;
    IF p_snapshot IS NOT NULL THEN
        INSERT INTO snapshots (stream_id, version, fingerprint, state)
        VALUES (p_stream, v, p_fingerprint, p_snapshot)
        ON CONFLICT (stream_id) DO UPDATE
            SET version = EXCLUDED.version, fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state;
    END IF;
    -- a hint only (sent at commit, lost on disconnect): waiters re-query on wake and on a
    -- timer. A notifying commit takes a database-wide lock, so a busy service passes
    -- p_notify = false and sends batched hints after commit instead (events/notify.py).
    IF p_notify THEN
        PERFORM pg_notify('facedown_events', p_stream::text || ':' || v::text);
    END IF;
    RETURN QUERY SELECT 'appended'::text, v, h, cur_version + 1, v;
END $$;
