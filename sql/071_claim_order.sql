-- The e-mail and push claims take their candidates in one total order: due time, then the
-- row's key. Ordered by due time alone, rows due at the same moment (a batch enqueued at once)
-- came in any order, and two senders claiming at once could lock the same rows in opposite
-- orders: on Citus, where each row is its own shard's update, that was a distributed deadlock
-- and one sender's claim failed (seen once in tests/citus/test_reach_on_citus.py). The same
-- functions as 017 otherwise; CREATE OR REPLACE keeps their owner and grants.
CREATE OR REPLACE FUNCTION fd_mail_claim(p_limit int, p_lease_seconds int, p_now timestamptz)
RETURNS TABLE (player_id uuid, mail_id uuid, claim int, failures int, kind text, seq bigint, game_id uuid,
               address text, args jsonb, secret text, unsubscribe uuid, created_at timestamptz,
               n_kind text, n_version bigint, n_seats int[], n_data jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    players uuid[];
    ids     uuid[];
    got     mail_outbox%ROWTYPE;
BEGIN
    SELECT array_agg(c.player_id ORDER BY c.due_at, c.player_id, c.mail_id),
           array_agg(c.mail_id ORDER BY c.due_at, c.player_id, c.mail_id) INTO players, ids FROM (
        SELECT o.player_id, o.mail_id, o.due_at FROM mail_outbox o WHERE o.status = 'pending' AND o.due_at <= p_now
        ORDER BY o.due_at, o.player_id, o.mail_id LIMIT p_limit) c;
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

CREATE OR REPLACE FUNCTION fd_push_claim(p_limit int, p_lease_seconds int, p_now timestamptz)
RETURNS TABLE (player_id uuid, push_id uuid, claim int, failures int, subscription_id uuid, endpoint text,
               p256dh text, auth bytea, kind text, seq bigint, game_id uuid, args jsonb, created_at timestamptz,
               n_kind text, n_version bigint, n_seats int[], n_data jsonb)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    players uuid[];
    ids     uuid[];
    got     push_outbox%ROWTYPE;
BEGIN
    SELECT array_agg(c.player_id ORDER BY c.due_at, c.player_id, c.push_id),
           array_agg(c.push_id ORDER BY c.due_at, c.player_id, c.push_id) INTO players, ids FROM (
        SELECT o.player_id, o.push_id, o.due_at FROM push_outbox o WHERE o.status = 'pending' AND o.due_at <= p_now
        ORDER BY o.due_at, o.player_id, o.push_id LIMIT p_limit) c;
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
