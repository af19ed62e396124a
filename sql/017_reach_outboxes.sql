-- Reaching a player whose page is closed, part two: the e-mail and push outboxes.
--
-- A row is written in the same transaction as what causes it: a notification's rows by
-- fd_insert_notifications (below, as the webhook outbox of 007), an address's verification
-- e-mail with its token (fd_set_email), the rest (a sign-in code's e-mail, reminders and
-- digests the sender schedules) by fd_mail_enqueue / fd_push_enqueue or by the settling of
-- the row that caused them. A row records what happened and when it is due (-infinity: at
-- once); whether and when it is sent (settings, quiet hours, digests, an open page) is
-- decided by the sender, which may put a row off (a new due time), skip it, or send it.
--
-- The sender claims due rows with a lease (fd_mail_claim, fd_push_claim: the row's due time
-- moves past the lease and its claim count grows), sends, then settles the row (fd_mail_settle,
-- fd_push_settle) naming the claim it settles: a settling by a claim that is no longer the
-- row's latest changes nothing. A sender killed between the send and the settling leaves a row
-- that is due again once its lease has run out, and is sent again with the same Message-ID
-- (e-mail) or Topic (push): at least once, never lost (docs/reaching-players.md).

CREATE TABLE mail_outbox (
    player_id   uuid        NOT NULL,
    mail_id     uuid        NOT NULL,
    -- a notification's kind (your_turn, game_over, invited) or reminder, digest,
    -- verify_email, signin_code
    kind        text        NOT NULL,
    seq         bigint,               -- the notification that caused it (player_id, seq)
    game_id     uuid,
    to_address  text,                 -- NULL: the player's verified address when it is sent
    args        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    dedup_key   text,                 -- at most one row per (player, key): a reminder, a digest
    status      text        NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
    due_at      timestamptz NOT NULL DEFAULT '-infinity',
    claims      int         NOT NULL DEFAULT 0,
    failures    int         NOT NULL DEFAULT 0,  -- tries that failed for a while (the back-off's count)
    last_error  text,
    -- the List-Unsubscribe link's token (RFC 8058): it turns this kind of e-mail off
    unsubscribe uuid        NOT NULL DEFAULT gen_random_uuid(),
    created_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    PRIMARY KEY (player_id, mail_id)
);
CREATE INDEX mail_outbox_due ON mail_outbox (due_at) WHERE status = 'pending';
CREATE UNIQUE INDEX mail_outbox_dedup ON mail_outbox (player_id, dedup_key) WHERE dedup_key IS NOT NULL;
CREATE INDEX mail_outbox_unsubscribe ON mail_outbox (unsubscribe);

-- What an e-mail carries that is kept nowhere else in the clear: a verification token, a
-- sign-in code. Read only by the claim; gone once the e-mail is settled.
CREATE TABLE mail_secrets (
    player_id uuid NOT NULL,
    mail_id   uuid NOT NULL,
    secret    text NOT NULL,
    PRIMARY KEY (player_id, mail_id)
);

-- One row per subscription: each browser's push succeeds, is retried or is gone on its own.
CREATE TABLE push_outbox (
    player_id       uuid        NOT NULL,
    push_id         uuid        NOT NULL,
    subscription_id uuid        NOT NULL,
    kind            text        NOT NULL,  -- a notification's kind, or reminder
    seq             bigint,
    game_id         uuid,
    args            jsonb       NOT NULL DEFAULT '{}'::jsonb,
    dedup_key       text,
    status          text        NOT NULL DEFAULT 'pending'
                                CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
    due_at          timestamptz NOT NULL DEFAULT '-infinity',
    claims          int         NOT NULL DEFAULT 0,
    failures        int         NOT NULL DEFAULT 0,
    last_status     int,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    PRIMARY KEY (player_id, push_id)
);
CREATE INDEX push_outbox_due ON push_outbox (due_at) WHERE status = 'pending';
CREATE UNIQUE INDEX push_outbox_dedup ON push_outbox (player_id, subscription_id, dedup_key)
    WHERE dedup_key IS NOT NULL;

-- As 007: each player's new notifications numbered after its head, the webhook outbox beside
-- them; and now the e-mail and push outboxes too, for the kinds the player's settings have
-- each channel follow (every kind a channel may carry while they have saved none), when the
-- player has a verified address (e-mail) or subscriptions (one row each).
CREATE OR REPLACE FUNCTION fd_insert_notifications(p_items jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
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
        RETURNING player_id, seq, kind, game_id
    ), hooks AS (
        INSERT INTO webhook_deliveries (delivery_id, webhook_id, player_id, seq)
        SELECT gen_random_uuid(), w.webhook_id, i.player_id, i.seq
        FROM inserted i
        JOIN webhooks w ON w.player_id = i.player_id AND w.enabled AND NOT w.removed AND i.kind = ANY (w.events)
    ), reach AS (
        SELECT i.player_id, i.seq, i.kind, i.game_id,
               coalesce(s.email_kinds, fd_reach_kinds()) AS email_kinds,
               coalesce(s.push_kinds, fd_reach_kinds()) AS push_kinds
        FROM inserted i LEFT JOIN notification_settings s ON s.player_id = i.player_id
        WHERE i.kind = ANY (fd_reach_kinds())
    ), mails AS (
        INSERT INTO mail_outbox (player_id, mail_id, kind, seq, game_id)
        SELECT r.player_id, gen_random_uuid(), r.kind, r.seq, r.game_id
        FROM reach r JOIN player_emails e ON e.player_id = r.player_id AND e.verified_at IS NOT NULL
        WHERE r.kind = ANY (r.email_kinds)
    )
    INSERT INTO push_outbox (player_id, push_id, subscription_id, kind, seq, game_id)
    SELECT r.player_id, gen_random_uuid(), p.subscription_id, r.kind, r.seq, r.game_id
    FROM reach r JOIN push_subscriptions p ON p.player_id = r.player_id
    WHERE r.kind = ANY (r.push_kinds);
END $$;

-- Rows to enqueue, one statement each (the same steps on Citus, which takes no subquery in
-- an INSERT's VALUES). A row whose dedup key the player already has is left out.
-- mail: {player_id, mail_id, kind, seq, game_id, to_address, args, dedup_key, due_at, secret}
CREATE FUNCTION fd_mail_insert(p_items jsonb) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    x    jsonb;
    made int := 0;
    pl   uuid;
    id   uuid;
BEGIN
    FOR x IN SELECT e FROM jsonb_array_elements(coalesce(p_items, '[]'::jsonb)) e LOOP
        pl := (x->>'player_id')::uuid;
        id := coalesce((x->>'mail_id')::uuid, gen_random_uuid());
        INSERT INTO mail_outbox (player_id, mail_id, kind, seq, game_id, to_address, args, dedup_key, due_at)
        VALUES (pl, id, x->>'kind', (x->>'seq')::bigint, (x->>'game_id')::uuid, x->>'to_address',
                coalesce(x->'args', '{}'::jsonb), x->>'dedup_key',
                coalesce((x->>'due_at')::timestamptz, '-infinity'))
        ON CONFLICT DO NOTHING;
        IF FOUND THEN
            made := made + 1;
            IF x->>'secret' IS NOT NULL THEN
                INSERT INTO mail_secrets (player_id, mail_id, secret) VALUES (pl, id, x->>'secret');
            END IF;
        END IF;
    END LOOP;
    RETURN made;
END $$;

-- push: {player_id, push_id, subscription_id, kind, seq, game_id, args, dedup_key, due_at}
CREATE FUNCTION fd_push_insert(p_items jsonb) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    x    jsonb;
    made int := 0;
BEGIN
    FOR x IN SELECT e FROM jsonb_array_elements(coalesce(p_items, '[]'::jsonb)) e LOOP
        INSERT INTO push_outbox (player_id, push_id, subscription_id, kind, seq, game_id, args, dedup_key, due_at)
        VALUES ((x->>'player_id')::uuid, coalesce((x->>'push_id')::uuid, gen_random_uuid()),
                (x->>'subscription_id')::uuid, x->>'kind', (x->>'seq')::bigint, (x->>'game_id')::uuid,
                coalesce(x->'args', '{}'::jsonb), x->>'dedup_key',
                coalesce((x->>'due_at')::timestamptz, '-infinity'))
        ON CONFLICT DO NOTHING;
        IF FOUND THEN
            made := made + 1;
        END IF;
    END LOOP;
    RETURN made;
END $$;

CREATE FUNCTION fd_mail_enqueue(p_items jsonb) RETURNS int
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$ SELECT fd_mail_insert(p_items) $$;

CREATE FUNCTION fd_push_enqueue(p_items jsonb) RETURNS int
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$ SELECT fd_push_insert(p_items) $$;

-- A new address for the player, not verified yet, with the token that verifies it (its
-- digest) and the e-mail that carries it (p_mail, an item of fd_mail_insert whose secret is
-- the token), in one transaction. A token of an address given before verifies nothing.
CREATE FUNCTION fd_set_email(p_player uuid, p_email text, p_token_sha256 text, p_expires timestamptz,
                             p_now timestamptz, p_mail jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO player_emails (player_id, email, verified_at, updated_at) VALUES (p_player, p_email, NULL, p_now)
    ON CONFLICT (player_id) DO UPDATE SET email = EXCLUDED.email, verified_at = NULL, updated_at = EXCLUDED.updated_at;
    INSERT INTO email_tokens (token_sha256, player_id, email, created_at, expires_at)
    VALUES (p_token_sha256, p_player, p_email, p_now, p_expires);
    PERFORM fd_mail_insert(jsonb_build_array(p_mail));
END $$;

-- Use a verification token once: 'verified' (and whose address it is), else why not:
-- 'unknown', 'used', 'expired', or 'changed' (the player has given another address since).
CREATE FUNCTION fd_verify_email(p_token_sha256 text, p_now timestamptz)
RETURNS TABLE (status text, player_id uuid, email text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    t email_tokens%ROWTYPE;
BEGIN
    SELECT * INTO t FROM email_tokens k WHERE k.token_sha256 = p_token_sha256 FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown'::text, NULL::uuid, NULL::text;
        RETURN;
    END IF;
    IF t.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'used'::text, t.player_id, t.email;
        RETURN;
    END IF;
    IF t.expires_at <= p_now THEN
        RETURN QUERY SELECT 'expired'::text, t.player_id, t.email;
        RETURN;
    END IF;
    UPDATE email_tokens k SET used_at = p_now WHERE k.token_sha256 = p_token_sha256;
    PERFORM 1 FROM player_emails e WHERE e.player_id = t.player_id AND e.email = t.email FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'changed'::text, t.player_id, t.email;
        RETURN;
    END IF;
    -- the address now proves this account: no other keeps it verified
    UPDATE player_emails e SET verified_at = NULL, updated_at = p_now
        WHERE lower(e.email) = lower(t.email) AND e.player_id <> t.player_id AND e.verified_at IS NOT NULL;
    UPDATE player_emails e SET verified_at = p_now, updated_at = p_now WHERE e.player_id = t.player_id;
    RETURN QUERY SELECT 'verified'::text, t.player_id, t.email;
END $$;

-- Due rows, leased to the caller until p_now + p_lease_seconds. The candidates are read
-- first, then each is taken by its own update, which re-checks that it is still due: of two
-- callers racing for a row, the second finds it leased and passes on (the same steps on
-- Citus, which locks no row of a query over every shard).
CREATE FUNCTION fd_mail_claim(p_limit int, p_lease_seconds int, p_now timestamptz)
RETURNS TABLE (player_id uuid, mail_id uuid, claim int, failures int, kind text, seq bigint, game_id uuid,
               address text, args jsonb, secret text, unsubscribe uuid, created_at timestamptz,
               n_kind text, n_version bigint, n_seats int[], n_data jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    players uuid[];
    ids     uuid[];
    got     mail_outbox%ROWTYPE;
BEGIN
    SELECT array_agg(c.player_id), array_agg(c.mail_id) INTO players, ids FROM (
        SELECT o.player_id, o.mail_id FROM mail_outbox o WHERE o.status = 'pending' AND o.due_at <= p_now
        ORDER BY o.due_at LIMIT p_limit) c;
    FOR i IN 1 .. coalesce(cardinality(ids), 0) LOOP
        UPDATE mail_outbox o SET due_at = p_now + p_lease_seconds * interval '1 second', claims = o.claims + 1
            WHERE o.player_id = players[i] AND o.mail_id = ids[i] AND o.status = 'pending' AND o.due_at <= p_now
            RETURNING o.* INTO got;
        CONTINUE WHEN NOT FOUND;
        -- one statement per table, each on one player's rows (one shard on Citus)
        player_id := got.player_id; mail_id := got.mail_id; claim := got.claims; failures := got.failures;
        kind := got.kind; seq := got.seq; game_id := got.game_id; args := got.args;
        unsubscribe := got.unsubscribe; created_at := got.created_at;
        address := got.to_address;
        IF address IS NULL THEN
            SELECT e.email INTO address FROM player_emails e
                WHERE e.player_id = got.player_id AND e.verified_at IS NOT NULL;
        END IF;
        SELECT s.secret INTO secret FROM mail_secrets s WHERE s.player_id = got.player_id AND s.mail_id = got.mail_id;
        SELECT n.kind, n.version, n.seats, n.data INTO n_kind, n_version, n_seats, n_data
            FROM notifications n WHERE n.player_id = got.player_id AND n.seq = got.seq;
        RETURN NEXT;
    END LOOP;
END $$;

-- Settle one claim. p_outcome: 'sent', 'skipped' or 'failed' (done: the row's secret goes);
-- 'retry' (it failed for a while: due again at p_next, one more failure counted) or
-- 'postpone' (not now: due at p_next). p_then: rows it causes (fd_mail_insert's items: a
-- reminder, a digest), written in the same transaction. Returns the row's status after, or
-- 'stale' when p_claim is not the row's latest claim (nothing is changed then).
CREATE FUNCTION fd_mail_settle(p_player uuid, p_mail uuid, p_claim int, p_outcome text, p_error text,
                               p_next timestamptz, p_now timestamptz, p_then jsonb DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    done boolean := p_outcome IN ('sent', 'skipped', 'failed');
BEGIN
    IF NOT done AND (p_outcome NOT IN ('retry', 'postpone') OR p_next IS NULL) THEN
        RAISE EXCEPTION 'facedown: cannot settle an e-mail as % (next %)', p_outcome, p_next
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE mail_outbox o SET
        status = CASE WHEN done THEN p_outcome ELSE 'pending' END,
        due_at = CASE WHEN done THEN o.due_at ELSE p_next END,
        failures = o.failures + CASE WHEN p_outcome = 'retry' THEN 1 ELSE 0 END,
        last_error = CASE WHEN p_outcome = 'postpone' THEN o.last_error ELSE left(p_error, 500) END,
        finished_at = CASE WHEN done THEN p_now END
    WHERE o.player_id = p_player AND o.mail_id = p_mail AND o.status = 'pending' AND o.claims = p_claim;
    IF NOT FOUND THEN
        RETURN 'stale';
    END IF;
    IF done THEN
        DELETE FROM mail_secrets s WHERE s.player_id = p_player AND s.mail_id = p_mail;
    END IF;
    PERFORM fd_mail_insert(p_then);
    RETURN CASE WHEN done THEN p_outcome ELSE 'pending' END;
END $$;

-- As fd_mail_claim, with the subscription's endpoint and keys. A row whose subscription is
-- gone (unsubscribed, or its push service said so) is skipped here, not returned.
CREATE FUNCTION fd_push_claim(p_limit int, p_lease_seconds int, p_now timestamptz)
RETURNS TABLE (player_id uuid, push_id uuid, claim int, failures int, subscription_id uuid, endpoint text,
               p256dh text, auth bytea, kind text, seq bigint, game_id uuid, args jsonb, created_at timestamptz,
               n_kind text, n_version bigint, n_seats int[], n_data jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    players uuid[];
    ids     uuid[];
    got     push_outbox%ROWTYPE;
BEGIN
    SELECT array_agg(c.player_id), array_agg(c.push_id) INTO players, ids FROM (
        SELECT o.player_id, o.push_id FROM push_outbox o WHERE o.status = 'pending' AND o.due_at <= p_now
        ORDER BY o.due_at LIMIT p_limit) c;
    FOR i IN 1 .. coalesce(cardinality(ids), 0) LOOP
        UPDATE push_outbox o SET due_at = p_now + p_lease_seconds * interval '1 second', claims = o.claims + 1
            WHERE o.player_id = players[i] AND o.push_id = ids[i] AND o.status = 'pending' AND o.due_at <= p_now
            RETURNING o.* INTO got;
        CONTINUE WHEN NOT FOUND;
        SELECT s.endpoint, s.p256dh INTO endpoint, p256dh FROM push_subscriptions s
            WHERE s.player_id = got.player_id AND s.subscription_id = got.subscription_id;
        IF NOT FOUND THEN
            UPDATE push_outbox o SET status = 'skipped', last_error = 'the subscription is gone', finished_at = p_now
                WHERE o.player_id = got.player_id AND o.push_id = got.push_id;
            CONTINUE;
        END IF;
        SELECT k.auth INTO auth FROM push_subscription_secrets k
            WHERE k.player_id = got.player_id AND k.subscription_id = got.subscription_id;
        player_id := got.player_id; push_id := got.push_id; claim := got.claims; failures := got.failures;
        subscription_id := got.subscription_id; kind := got.kind; seq := got.seq; game_id := got.game_id;
        args := got.args; created_at := got.created_at;
        SELECT n.kind, n.version, n.seats, n.data INTO n_kind, n_version, n_seats, n_data
            FROM notifications n WHERE n.player_id = got.player_id AND n.seq = got.seq;
        RETURN NEXT;
    END LOOP;
END $$;

-- As fd_mail_settle, with the push service's answer (p_status) kept on the row and on the
-- subscription, and one more outcome: 'gone' (404 or 410: the subscription is removed, its
-- other pending pushes skipped).
CREATE FUNCTION fd_push_settle(p_player uuid, p_push uuid, p_claim int, p_outcome text, p_status int,
                               p_error text, p_next timestamptz, p_now timestamptz, p_then jsonb DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    gone boolean := p_outcome = 'gone';
    done boolean := p_outcome IN ('sent', 'skipped', 'failed', 'gone');
    sub  uuid;
BEGIN
    IF NOT done AND (p_outcome NOT IN ('retry', 'postpone') OR p_next IS NULL) THEN
        RAISE EXCEPTION 'facedown: cannot settle a push as % (next %)', p_outcome, p_next
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE push_outbox o SET
        status = CASE WHEN gone THEN 'failed' WHEN done THEN p_outcome ELSE 'pending' END,
        due_at = CASE WHEN done THEN o.due_at ELSE p_next END,
        failures = o.failures + CASE WHEN p_outcome = 'retry' THEN 1 ELSE 0 END,
        last_status = coalesce(p_status, o.last_status),
        last_error = CASE WHEN p_outcome = 'postpone' THEN o.last_error ELSE left(p_error, 500) END,
        finished_at = CASE WHEN done THEN p_now END
    WHERE o.player_id = p_player AND o.push_id = p_push AND o.status = 'pending' AND o.claims = p_claim
    RETURNING o.subscription_id INTO sub;
    IF NOT FOUND THEN
        RETURN 'stale';
    END IF;
    IF p_outcome = 'sent' THEN
        UPDATE push_subscriptions s SET last_success_at = p_now
            WHERE s.player_id = p_player AND s.subscription_id = sub;
    ELSIF p_outcome IN ('retry', 'failed') THEN
        UPDATE push_subscriptions s SET last_failure_at = p_now, last_error = left(p_error, 500)
            WHERE s.player_id = p_player AND s.subscription_id = sub;
    ELSIF gone THEN
        PERFORM fd_push_unsubscribe(p_player, sub);
        UPDATE push_outbox o SET status = 'skipped', last_error = 'the subscription is gone', finished_at = p_now
            WHERE o.player_id = p_player AND o.subscription_id = sub AND o.status = 'pending';
        RETURN 'gone';
    END IF;
    PERFORM fd_push_insert(p_then);
    RETURN CASE WHEN done THEN p_outcome ELSE 'pending' END;
END $$;

-- Forget what is done: settled rows finished before p_before, and verification tokens used
-- or expired before it. Returns how many rows went.
CREATE FUNCTION fd_reach_purge(p_before timestamptz) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    n bigint;
    total bigint := 0;
BEGIN
    DELETE FROM mail_outbox o WHERE o.status <> 'pending' AND o.finished_at < p_before;
    GET DIAGNOSTICS n = ROW_COUNT;
    total := total + n;
    DELETE FROM push_outbox o WHERE o.status <> 'pending' AND o.finished_at < p_before;
    GET DIAGNOSTICS n = ROW_COUNT;
    total := total + n;
    DELETE FROM email_tokens t WHERE coalesce(t.used_at, t.expires_at) < p_before;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN total + n;
END $$;

-- as 008: every function is the owner's alone, and the service may call those it needs; it
-- reads the tables but the secrets (the VAPID private key, push auth secrets, the e-mails'
-- tokens and codes, the digests of verification tokens)
REVOKE ALL ON FUNCTION fd_mail_insert(jsonb), fd_push_insert(jsonb), fd_mail_enqueue(jsonb), fd_push_enqueue(jsonb),
    fd_set_email(uuid, text, text, timestamptz, timestamptz, jsonb), fd_verify_email(text, timestamptz),
    fd_mail_claim(int, int, timestamptz), fd_mail_settle(uuid, uuid, int, text, text, timestamptz, timestamptz, jsonb),
    fd_push_claim(int, int, timestamptz),
    fd_push_settle(uuid, uuid, int, text, int, text, timestamptz, timestamptz, jsonb),
    fd_reach_purge(timestamptz) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT SELECT ON player_emails, push_subscriptions, notification_settings, mail_outbox, push_outbox
        TO facedown_app;
    GRANT EXECUTE ON FUNCTION fd_vapid_key(text, bytea, timestamptz), fd_vapid_public(),
        fd_put_notification_settings(uuid, jsonb, text[], text[], timestamptz),
        fd_push_subscribe(uuid, uuid, text, text, bytea, timestamptz, int), fd_push_unsubscribe(uuid, uuid),
        fd_mail_enqueue(jsonb), fd_push_enqueue(jsonb),
        fd_set_email(uuid, text, text, timestamptz, timestamptz, jsonb), fd_verify_email(text, timestamptz),
        fd_mail_claim(int, int, timestamptz),
        fd_mail_settle(uuid, uuid, int, text, text, timestamptz, timestamptz, jsonb),
        fd_push_claim(int, int, timestamptz),
        fd_push_settle(uuid, uuid, int, text, int, text, timestamptz, timestamptz, jsonb),
        fd_reach_purge(timestamptz) TO facedown_app;
END $$;
