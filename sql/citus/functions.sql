-- Citus only (applied by events/citus.py after the migrations, on a Citus coordinator; never
-- on plain PostgreSQL): the functions whose single statements Citus cannot plan, rewritten as
-- the same steps one row at a time. Same signature, same result, same locks in the same order.
-- A migration that changes one of these functions must change it here too.

-- As sql/017 (007's, with the e-mail and push outboxes): each player's new notifications
-- numbered after its head, heads locked in player order, the outboxes written beside them.
-- Citus plans no data-modifying CTE that reads a correlated subquery, so the one statement of
-- 017 becomes a loop; every statement in it touches one player's shard (or a reference table:
-- the webhooks, the players' addresses).
CREATE OR REPLACE FUNCTION fd_insert_notifications(p_items jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    fresh  jsonb := '[]'::jsonb;
    x      jsonb;
    pl     uuid;
    n      bigint;
    head   bigint;
    k      bigint;
    hook   uuid;
    v_seats int[];
    kinds_mail text[];
    kinds_push text[];
    mailed boolean;
    sub    uuid;
BEGIN
    -- the items not deduplicated away by a stored notification (as 007, checked before any insert)
    FOR x IN SELECT t.x FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(x, o) ORDER BY t.o LOOP
        IF x->>'dedup_key' IS NULL OR NOT EXISTS (
            SELECT 1 FROM notifications nn
            WHERE nn.player_id = (x->>'player_id')::uuid AND nn.dedup_key = x->>'dedup_key') THEN
            fresh := fresh || jsonb_build_array(x);
        END IF;
    END LOOP;
    FOR pl, n IN SELECT (e->>'player_id')::uuid, count(*) FROM jsonb_array_elements(fresh) e
                 GROUP BY 1 ORDER BY 1 LOOP
        INSERT INTO notification_heads AS h (player_id, seq) VALUES (pl, n)
            ON CONFLICT (player_id) DO UPDATE SET seq = h.seq + EXCLUDED.seq
            RETURNING h.seq INTO head;
        k := head - n;
        FOR x IN SELECT t.x FROM jsonb_array_elements(fresh) WITH ORDINALITY AS t(x, o)
                 WHERE (t.x->>'player_id')::uuid = pl ORDER BY t.o LOOP
            k := k + 1;
            -- computed here: Citus takes no subquery inside an INSERT's VALUES
            v_seats := coalesce(ARRAY(SELECT jsonb_array_elements_text(coalesce(x->'seats', '[]'::jsonb))::int), '{}');
            INSERT INTO notifications (player_id, seq, kind, game_id, version, seats, data, dedup_key)
            VALUES (pl, k, x->>'kind', (x->>'game_id')::uuid, (x->>'version')::bigint, v_seats,
                    coalesce(x->'data', '{}'::jsonb), x->>'dedup_key');
            FOR hook IN SELECT w.webhook_id FROM webhooks w
                        WHERE w.player_id = pl AND w.enabled AND NOT w.removed AND x->>'kind' = ANY (w.events) LOOP
                INSERT INTO webhook_deliveries (delivery_id, webhook_id, player_id, seq)
                VALUES (gen_random_uuid(), hook, pl, k);
            END LOOP;
            CONTINUE WHEN NOT x->>'kind' = ANY (fd_reach_kinds());
            SELECT s.email_kinds, s.push_kinds INTO kinds_mail, kinds_push
                FROM notification_settings s WHERE s.player_id = pl;
            IF x->>'kind' = ANY (coalesce(kinds_mail, fd_reach_kinds())) THEN
                SELECT true INTO mailed FROM player_emails e WHERE e.player_id = pl AND e.verified_at IS NOT NULL;
                IF FOUND THEN
                    INSERT INTO mail_outbox (player_id, mail_id, kind, seq, game_id)
                    VALUES (pl, gen_random_uuid(), x->>'kind', k, (x->>'game_id')::uuid);
                END IF;
            END IF;
            IF x->>'kind' = ANY (coalesce(kinds_push, fd_reach_kinds())) THEN
                FOR sub IN SELECT p.subscription_id FROM push_subscriptions p WHERE p.player_id = pl LOOP
                    INSERT INTO push_outbox (player_id, push_id, subscription_id, kind, seq, game_id)
                    VALUES (pl, gen_random_uuid(), sub, x->>'kind', k, (x->>'game_id')::uuid);
                END LOOP;
            END IF;
        END LOOP;
    END LOOP;
END $$;

-- As sql/013 (and 007's webhook_add), for the effects whose statements Citus cannot plan: the
-- arrays are computed before the statement that writes them (Citus takes no subquery inside an
-- INSERT's VALUES, and fd_int_array is inlined as one), and the game's members are walked from
-- the JSON instead of a temporary table. Every other effect (the accounts', the sign-in
-- codes') goes to the migrations' own fd_apply as it is, kept under the name fd_apply_plain
-- (renamed once, the first time this file runs, after every migration). A migration that
-- changes fd_apply after a cluster was distributed must change this file with it.
DO $$
BEGIN
    IF to_regprocedure('fd_apply_plain(uuid, jsonb)') IS NULL THEN
        ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_plain;
    END IF;
END $$;

CREATE OR REPLACE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    op         text := p_effect->>'op';
    r          jsonb := p_effect->'row';
    v_awaiting int[] := fd_int_array(r->'awaiting');
    v_scores   int[] := fd_int_array(r->'scores');
    v_winners  int[] := fd_int_array(r->'winners');
    v_may_act  int[] := fd_int_array(r->'may_act');
    names      text[];
    members    uuid[] := '{}';
    s          jsonb;
    who        uuid;
BEGIN
    IF op = 'game_index' THEN
        INSERT INTO game_index (stream_id, ruleset, name, status, seats, awaiting, updated_at, version,
                                deadline_kind, deadline_since, visibility, creator, free_seats, round, scores,
                                winners, may_act, deadline_due, deadline, time_control, rematch_of, next_game)
        VALUES (p_stream, r->>'ruleset', r->>'name', r->>'status', r->'seats', v_awaiting,
                (r->>'updated_at')::timestamptz, (r->>'version')::bigint, r->>'deadline_kind',
                (r->>'deadline_since')::timestamptz, r->>'visibility', (r->>'creator')::uuid,
                (r->>'free_seats')::int, (r->>'round')::int, v_scores, v_winners,
                v_may_act, (r->>'deadline_due')::timestamptz, nullif(r->'deadline', 'null'),
                nullif(r->'time_control', 'null'), (r->>'rematch_of')::uuid, (r->>'next_game')::uuid)
        ON CONFLICT (stream_id) DO UPDATE SET ruleset = EXCLUDED.ruleset, name = EXCLUDED.name,
            status = EXCLUDED.status, seats = EXCLUDED.seats, awaiting = EXCLUDED.awaiting,
            updated_at = EXCLUDED.updated_at, version = EXCLUDED.version,
            deadline_kind = EXCLUDED.deadline_kind, deadline_since = EXCLUDED.deadline_since,
            visibility = EXCLUDED.visibility, creator = EXCLUDED.creator, free_seats = EXCLUDED.free_seats,
            round = EXCLUDED.round, scores = EXCLUDED.scores, winners = EXCLUDED.winners,
            may_act = EXCLUDED.may_act, deadline_due = EXCLUDED.deadline_due, deadline = EXCLUDED.deadline,
            time_control = EXCLUDED.time_control, rematch_of = EXCLUDED.rematch_of, next_game = EXCLUDED.next_game
        WHERE game_index.version < EXCLUDED.version;
        -- who sits (seats[].player_id) or is invited (seats[].reserved_for.player_id) where
        FOR s IN SELECT e FROM jsonb_array_elements(r->'seats') e
                 WHERE e->>'player_id' IS NOT NULL OR jsonb_typeof(e->'reserved_for') = 'object' LOOP
            who := coalesce(s->>'player_id', s->'reserved_for'->>'player_id')::uuid;
            members := members || who;
            INSERT INTO game_players (player_id, stream_id, seat, role)
            VALUES (who, p_stream, (s->>'seat')::int,
                    CASE WHEN s->>'player_id' IS NOT NULL THEN 'seated' ELSE 'invited' END)
            ON CONFLICT (player_id, stream_id) DO UPDATE SET seat = EXCLUDED.seat, role = EXCLUDED.role;
        END LOOP;
        DELETE FROM game_players g WHERE g.stream_id = p_stream AND NOT (g.player_id = ANY (members));
    ELSIF op = 'game_progress' THEN
        UPDATE game_index SET status = r->>'status', awaiting = v_awaiting,
            updated_at = (r->>'updated_at')::timestamptz, version = (r->>'version')::bigint,
            deadline_kind = r->>'deadline_kind', deadline_since = (r->>'deadline_since')::timestamptz,
            round = (r->>'round')::int, scores = v_scores, winners = v_winners,
            may_act = v_may_act, deadline_due = (r->>'deadline_due')::timestamptz,
            deadline = nullif(r->'deadline', 'null')
        WHERE game_index.stream_id = p_stream AND game_index.version < (r->>'version')::bigint;
    ELSIF op = 'webhook_add' THEN
        names := ARRAY(SELECT jsonb_array_elements_text(r->'events'));
        INSERT INTO webhooks (webhook_id, player_id, url, events)
        VALUES ((r->>'webhook_id')::uuid, (r->>'player_id')::uuid, r->>'url', names);
        INSERT INTO webhook_secrets (webhook_id, secret) VALUES ((r->>'webhook_id')::uuid, decode(r->>'secret', 'hex'));
    -- the game chat's effects (sql/050), by name: a cluster distributed before 050 keeps
    -- the fd_apply_plain it had then, which knows nothing of them
    ELSIF op IN ('chat_message', 'chat_hidden', 'chat_report', 'mute', 'unmute') THEN
        PERFORM fd_apply_chat(p_stream, p_effect);
    -- the ratings' (sql/030), by name for the same reason: a game's rating changes, and a
    -- bot's account marked as one after the player row is written
    ELSIF op = 'ratings' THEN
        PERFORM fd_apply_ratings(p_stream, r);
    -- a tournament's row (sql/060), by name for the same reason, on the tournament stream's node
    ELSIF op = 'tournament' THEN
        PERFORM fd_apply_tournament(p_stream, r);
    ELSIF op = 'player' AND coalesce((r->>'bot')::boolean, false) THEN
        PERFORM fd_apply_plain(p_stream, p_effect);
        UPDATE players SET bot = true WHERE player_id = (r->>'player_id')::uuid;
    ELSIF op = 'log_finished' THEN
        -- sql/040: a finished game's leaf of the server-wide log (reference tables)
        PERFORM fd_log_finished((r->>'game_id')::uuid, r->>'note');
    ELSE
        PERFORM fd_apply_plain(p_stream, p_effect);
    END IF;
END $$;

-- a new function may be called by anyone: this one, like every write function, by its owner
-- and the append only
REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb) FROM PUBLIC;

-- As sql/013: the player and token id of a live token, and its last use recorded, in one call.
-- Citus plans no INSERT that reads a CTE joining reference tables; the same two steps, in turn.
CREATE OR REPLACE FUNCTION fd_use_token(p_sha text, p_now timestamptz)
RETURNS TABLE (player_id uuid, name text, token_id uuid)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    tid   uuid;
    pid   uuid;
    pname text;
BEGIN
    SELECT k.token_id, p.player_id, p.name INTO tid, pid, pname FROM player_tokens k
        JOIN players p ON p.player_id = k.player_id WHERE k.token_sha256 = p_sha AND k.revoked_at IS NULL;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    INSERT INTO token_usage AS u (token_id, last_used_at) VALUES (tid, p_now)
        ON CONFLICT ON CONSTRAINT token_usage_pkey DO UPDATE SET last_used_at = EXCLUDED.last_used_at;
    RETURN QUERY SELECT pid, pname, tid;
END $$;
