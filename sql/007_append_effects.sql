-- The append applies its read-model effects itself, in its own transaction: the game index,
-- the players' projection, notifications and their webhook outbox. Every write the service
-- makes goes through a function like this one (SECURITY DEFINER, fixed search_path), so the
-- service's own role needs no INSERT, UPDATE or DELETE on any table (008).
--
-- p_effects: [{"op": ..., ...}], applied in order after the events are written, only if
-- they were (not for a duplicate or a stale append). The ops:
--   game_index     {row}: the game's whole index row and its seated players (seats changed)
--   game_progress  {status, awaiting, updated_at, version, deadline_kind, deadline_since}
--   player         {player_id, name, token_sha256}
--   notify         {items: [{player_id, kind, game_id, version, seats, data, dedup_key}]}
--   webhook_add    {webhook_id, player_id, url, events, secret (hex)}
--   webhook_remove {webhook_id}

CREATE FUNCTION fd_insert_notifications(p_items jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    -- number each player's new notifications after its head (the head row's lock orders
    -- concurrent appends; heads are locked in player order, so two appends never deadlock)
    WITH items AS (
        SELECT (x->>'player_id')::uuid AS player_id, x->>'kind' AS kind, (x->>'game_id')::uuid AS game_id,
               (x->>'version')::bigint AS version,
               coalesce(ARRAY(SELECT jsonb_array_elements_text(coalesce(x->'seats', '[]'::jsonb))::int), '{}') AS seats,
               coalesce(x->'data', '{}'::jsonb) AS data, x->>'dedup_key' AS dedup_key, o AS ord
        FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(x, o)
    ), fresh AS (
        SELECT i.* FROM items i
        WHERE i.dedup_key IS NULL OR NOT EXISTS (
            SELECT 1 FROM notifications n WHERE n.player_id = i.player_id AND n.dedup_key = i.dedup_key)
    ), counts AS (
        SELECT player_id, count(*) AS n FROM fresh GROUP BY player_id
    ), heads AS (
        INSERT INTO notification_heads AS h (player_id, seq)
        SELECT player_id, n FROM counts ORDER BY player_id
        ON CONFLICT (player_id) DO UPDATE SET seq = h.seq + EXCLUDED.seq
        RETURNING h.player_id, h.seq
    ), numbered AS (
        SELECT f.*, hd.seq - count(*) OVER w + row_number() OVER (w ORDER BY f.ord) AS seq
        FROM fresh f JOIN heads hd USING (player_id)
        WINDOW w AS (PARTITION BY f.player_id)
    ), inserted AS (
        INSERT INTO notifications (player_id, seq, kind, game_id, version, seats, data, dedup_key)
        SELECT player_id, seq, kind, game_id, version, seats, data, dedup_key FROM numbered
        RETURNING player_id, seq, kind
    )
    -- the outbox, in the same transaction: one delivery per subscribed webhook
    INSERT INTO webhook_deliveries (delivery_id, webhook_id, player_id, seq)
    SELECT gen_random_uuid(), w.webhook_id, i.player_id, i.seq
    FROM inserted i
    JOIN webhooks w ON w.player_id = i.player_id AND w.enabled AND NOT w.removed AND i.kind = ANY (w.events);
END $$;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    op text := p_effect->>'op';
    r  jsonb := p_effect->'row';
BEGIN
    IF op = 'game_index' THEN
        INSERT INTO game_index (stream_id, ruleset, name, status, seats, awaiting, updated_at, version,
                                deadline_kind, deadline_since)
        VALUES (p_stream, r->>'ruleset', r->>'name', r->>'status', r->'seats',
                ARRAY(SELECT jsonb_array_elements_text(r->'awaiting')::int), (r->>'updated_at')::timestamptz,
                (r->>'version')::bigint, r->>'deadline_kind', (r->>'deadline_since')::timestamptz)
        ON CONFLICT (stream_id) DO UPDATE SET ruleset = EXCLUDED.ruleset, name = EXCLUDED.name,
            status = EXCLUDED.status, seats = EXCLUDED.seats, awaiting = EXCLUDED.awaiting,
            updated_at = EXCLUDED.updated_at, version = EXCLUDED.version,
            deadline_kind = EXCLUDED.deadline_kind, deadline_since = EXCLUDED.deadline_since
        WHERE game_index.version < EXCLUDED.version;
        INSERT INTO game_players (player_id, stream_id)
        SELECT (s->>'player_id')::uuid, p_stream FROM jsonb_array_elements(r->'seats') s
        WHERE s->>'player_id' IS NOT NULL
        ON CONFLICT DO NOTHING;
    ELSIF op = 'game_progress' THEN
        UPDATE game_index SET status = r->>'status',
            awaiting = ARRAY(SELECT jsonb_array_elements_text(r->'awaiting')::int),
            updated_at = (r->>'updated_at')::timestamptz, version = (r->>'version')::bigint,
            deadline_kind = r->>'deadline_kind', deadline_since = (r->>'deadline_since')::timestamptz
        WHERE game_index.stream_id = p_stream AND game_index.version < (r->>'version')::bigint;
    ELSIF op = 'player' THEN
        INSERT INTO players (player_id, name, token_sha256)
        VALUES ((r->>'player_id')::uuid, r->>'name', r->>'token_sha256')
        ON CONFLICT (player_id) DO NOTHING;
    ELSIF op = 'notify' THEN
        PERFORM fd_insert_notifications(p_effect->'items');
    ELSIF op = 'webhook_add' THEN
        INSERT INTO webhooks (webhook_id, player_id, url, events)
        VALUES ((r->>'webhook_id')::uuid, (r->>'player_id')::uuid, r->>'url',
                ARRAY(SELECT jsonb_array_elements_text(r->'events')));
        INSERT INTO webhook_secrets (webhook_id, secret) VALUES ((r->>'webhook_id')::uuid, decode(r->>'secret', 'hex'));
    ELSIF op = 'webhook_remove' THEN
        UPDATE webhooks SET removed = true, enabled = false WHERE webhook_id = (r->>'webhook_id')::uuid;
        DELETE FROM webhook_secrets WHERE webhook_id = (r->>'webhook_id')::uuid;
    ELSE
        RAISE EXCEPTION 'facedown: unknown effect %', op USING ERRCODE = 'invalid_parameter_value';
    END IF;
END $$;

DROP FUNCTION fd_append(uuid, text, bigint, text, text, jsonb, text, bytea, boolean);

-- As 001's fd_append (same checks, same order, same hash chain), plus p_effects.
CREATE FUNCTION fd_append(
    p_stream uuid, p_kind text, p_expected bigint, p_command_id text, p_request_hash text,
    p_events jsonb, p_fingerprint text, p_snapshot bytea, p_notify boolean DEFAULT true, p_effects jsonb DEFAULT NULL
) RETURNS TABLE (status text, version bigint, head bytea, first_version bigint, last_version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
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
    IF p_effects IS NOT NULL THEN
        FOR ev IN SELECT * FROM jsonb_array_elements(p_effects) LOOP
            PERFORM fd_apply(p_stream, ev);
        END LOOP;
    END IF;
    -- a hint only (see 001): a busy service passes p_notify = false and sends batched
    -- hints after commit instead (events/notify.py)
    IF p_notify THEN
        PERFORM pg_notify('facedown_events', p_stream::text || ':' || v::text);
    END IF;
    RETURN QUERY SELECT 'appended'::text, v, h, cur_version + 1, v;
END $$;

-- A game's secret: stored once at creation (a retried creation gets the stored one back)
-- and read to derive the deals; the service cannot read the table itself.
CREATE FUNCTION fd_put_secret(p_stream uuid, p_secret bytea) RETURNS bytea
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE s bytea;
BEGIN
    INSERT INTO game_secrets (stream_id, secret) VALUES (p_stream, p_secret) ON CONFLICT DO NOTHING;
    SELECT g.secret INTO s FROM game_secrets g WHERE g.stream_id = p_stream;
    RETURN s;
END $$;

CREATE FUNCTION fd_get_secret(p_stream uuid) RETURNS bytea
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT secret FROM game_secrets WHERE stream_id = p_stream
$$;

-- Notifications that no append causes (a deadline drawing near).
CREATE FUNCTION fd_notify(p_items jsonb) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT fd_insert_notifications(p_items)
$$;

-- The delivery worker: claim due deliveries (a lease: a claimed row is due again after
-- p_lease_seconds, so a worker killed mid-send loses nothing), then record each attempt.
CREATE FUNCTION fd_claim_deliveries(p_limit int, p_lease_seconds int)
RETURNS TABLE (delivery_id uuid, webhook_id uuid, url text, secret bytea, attempts int,
               player_id uuid, seq bigint, kind text, game_id uuid, version bigint, seats int[],
               data jsonb, created_at timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY
    WITH due AS (
        SELECT d.delivery_id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at LIMIT p_limit FOR UPDATE SKIP LOCKED
    ), leased AS (
        UPDATE webhook_deliveries d SET next_attempt_at = now() + p_lease_seconds * interval '1 second',
            attempts = d.attempts + 1
        FROM due WHERE d.delivery_id = due.delivery_id
        RETURNING d.delivery_id, d.webhook_id, d.attempts, d.player_id, d.seq
    )
    SELECT l.delivery_id, l.webhook_id, w.url, s.secret, l.attempts, l.player_id, l.seq,
           n.kind, n.game_id, n.version, n.seats, n.data, n.created_at
    FROM leased l
    JOIN webhooks w ON w.webhook_id = l.webhook_id
    LEFT JOIN webhook_secrets s ON s.webhook_id = l.webhook_id
    JOIN notifications n ON n.player_id = l.player_id AND n.seq = l.seq;
END $$;

-- p_next: when to try again (NULL: no more tries). After p_disable_after deliveries in a
-- row failed for good, the webhook is disabled and its owner notified.
CREATE FUNCTION fd_delivery_result(p_delivery uuid, p_attempt int, p_status int, p_error text,
                                   p_duration_ms int, p_delivered boolean, p_next timestamptz,
                                   p_disable_after int)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    d webhook_deliveries%ROWTYPE;
    w webhooks%ROWTYPE;
BEGIN
    INSERT INTO webhook_attempts (delivery_id, attempt, status, error, duration_ms)
    VALUES (p_delivery, p_attempt, p_status, left(p_error, 500), p_duration_ms) ON CONFLICT DO NOTHING;
    SELECT * INTO d FROM webhook_deliveries WHERE delivery_id = p_delivery FOR UPDATE;
    IF NOT FOUND OR d.status <> 'pending' THEN
        RETURN 'gone';
    END IF;
    IF p_delivered THEN
        UPDATE webhook_deliveries SET status = 'delivered', last_status = p_status, last_error = NULL,
            finished_at = now() WHERE delivery_id = p_delivery;
        UPDATE webhooks SET failures = 0 WHERE webhook_id = d.webhook_id;
        RETURN 'delivered';
    END IF;
    IF p_next IS NOT NULL THEN
        UPDATE webhook_deliveries SET next_attempt_at = p_next, last_status = p_status,
            last_error = left(p_error, 500) WHERE delivery_id = p_delivery;
        RETURN 'retry';
    END IF;
    UPDATE webhook_deliveries SET status = 'failed', last_status = p_status, last_error = left(p_error, 500),
        finished_at = now() WHERE delivery_id = p_delivery;
    UPDATE webhooks SET failures = failures + 1 WHERE webhook_id = d.webhook_id RETURNING * INTO w;
    IF w.enabled AND w.failures >= p_disable_after THEN
        UPDATE webhooks SET enabled = false,
            disabled_reason = format('%s deliveries in a row failed', w.failures) WHERE webhook_id = w.webhook_id;
        -- the rest of its outbox will not be sent
        UPDATE webhook_deliveries SET status = 'failed', last_error = 'webhook disabled', finished_at = now()
            WHERE webhook_id = w.webhook_id AND status = 'pending';
        PERFORM fd_insert_notifications(jsonb_build_array(jsonb_build_object(
            'player_id', w.player_id, 'kind', 'webhook_disabled',
            'data', jsonb_build_object('webhook_id', w.webhook_id, 'url', w.url, 'failures', w.failures))));
        RETURN 'disabled';
    END IF;
    RETURN 'failed';
END $$;
