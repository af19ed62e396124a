-- The read-model writes of a game's life and of players' accounts, as effects of the append
-- (007): the service's own role writes no table (008). fd_apply now handles the game index
-- with 011's columns and who sits or is invited where, and the accounts of 012; every other
-- effect goes to the function it replaces, renamed fd_apply_shared.
--   game_index          {row}: the whole row (011's columns too) and its players: seated
--                       (seats[].player_id) or invited (seats[].reserved_for.player_id);
--                       the rows of players no longer there go
--   game_progress       {row}: what a command changes, 011's columns too
--   player              {player_id, name, token_sha256, handle, created_at}: the player and
--                       the registration's token (its id is the player's)
--   player_handle       {player_id, handle}
--   token_add           {token_id, player_id, token_sha256, label, created_at}
--   token_revoke        {token_id, at}
--   player_vacation     {player_id, from, until}
--   player_vacation_end {player_id, at}

-- a JSON array of integers as int[]; NULL for JSON null (a game not dealt has no scores)
CREATE FUNCTION fd_int_array(p jsonb) RETURNS int[]
LANGUAGE sql IMMUTABLE SET search_path = public, pg_temp AS $$
    SELECT CASE WHEN jsonb_typeof(p) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(p)::int) END
$$;

ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_shared;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    op text := p_effect->>'op';
    r  jsonb := p_effect->'row';
BEGIN
    IF op = 'game_index' THEN
        INSERT INTO game_index (stream_id, ruleset, name, status, seats, awaiting, updated_at, version,
                                deadline_kind, deadline_since, visibility, creator, free_seats, round, scores,
                                winners, may_act, deadline_due, deadline, time_control, rematch_of, next_game)
        VALUES (p_stream, r->>'ruleset', r->>'name', r->>'status', r->'seats', fd_int_array(r->'awaiting'),
                (r->>'updated_at')::timestamptz, (r->>'version')::bigint, r->>'deadline_kind',
                (r->>'deadline_since')::timestamptz, r->>'visibility', (r->>'creator')::uuid,
                (r->>'free_seats')::int, (r->>'round')::int, fd_int_array(r->'scores'), fd_int_array(r->'winners'),
                fd_int_array(r->'may_act'), (r->>'deadline_due')::timestamptz, nullif(r->'deadline', 'null'),
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
        CREATE TEMP TABLE IF NOT EXISTS fd_members (player_id uuid, seat int, role text) ON COMMIT DROP;
        DELETE FROM fd_members;
        INSERT INTO fd_members
            SELECT coalesce(s->>'player_id', s->'reserved_for'->>'player_id')::uuid, (s->>'seat')::int,
                   CASE WHEN s->>'player_id' IS NOT NULL THEN 'seated' ELSE 'invited' END
            FROM jsonb_array_elements(r->'seats') s
            WHERE s->>'player_id' IS NOT NULL OR jsonb_typeof(s->'reserved_for') = 'object';
        DELETE FROM game_players g WHERE g.stream_id = p_stream
            AND NOT EXISTS (SELECT 1 FROM fd_members m WHERE m.player_id = g.player_id);
        INSERT INTO game_players (player_id, stream_id, seat, role)
            SELECT m.player_id, p_stream, m.seat, m.role FROM fd_members m
        ON CONFLICT (player_id, stream_id) DO UPDATE SET seat = EXCLUDED.seat, role = EXCLUDED.role;
    ELSIF op = 'game_progress' THEN
        UPDATE game_index SET status = r->>'status', awaiting = fd_int_array(r->'awaiting'),
            updated_at = (r->>'updated_at')::timestamptz, version = (r->>'version')::bigint,
            deadline_kind = r->>'deadline_kind', deadline_since = (r->>'deadline_since')::timestamptz,
            round = (r->>'round')::int, scores = fd_int_array(r->'scores'), winners = fd_int_array(r->'winners'),
            may_act = fd_int_array(r->'may_act'), deadline_due = (r->>'deadline_due')::timestamptz,
            deadline = nullif(r->'deadline', 'null')
        WHERE game_index.stream_id = p_stream AND game_index.version < (r->>'version')::bigint;
    ELSIF op = 'player' THEN
        INSERT INTO players (player_id, name, token_sha256, handle, created_at)
        VALUES ((r->>'player_id')::uuid, r->>'name', r->>'token_sha256', r->>'handle',
                coalesce((r->>'created_at')::timestamptz, now()))
        ON CONFLICT (player_id) DO NOTHING;
        INSERT INTO player_tokens (token_id, player_id, token_sha256, label, created_at)
        VALUES ((r->>'player_id')::uuid, (r->>'player_id')::uuid, r->>'token_sha256', 'registration',
                coalesce((r->>'created_at')::timestamptz, now()))
        ON CONFLICT (token_id) DO NOTHING;
    ELSIF op = 'player_handle' THEN
        UPDATE players SET handle = r->>'handle' WHERE player_id = (r->>'player_id')::uuid;
    ELSIF op = 'token_add' THEN
        INSERT INTO player_tokens (token_id, player_id, token_sha256, label, created_at)
        VALUES ((r->>'token_id')::uuid, (r->>'player_id')::uuid, r->>'token_sha256', r->>'label',
                coalesce((r->>'created_at')::timestamptz, now()))
        ON CONFLICT (token_id) DO NOTHING;
    ELSIF op = 'token_revoke' THEN
        UPDATE player_tokens SET revoked_at = (r->>'at')::timestamptz WHERE token_id = (r->>'token_id')::uuid;
    ELSIF op = 'player_vacation' THEN
        UPDATE players SET vacation_from = (r->>'from')::timestamptz, vacation_until = (r->>'until')::timestamptz
        WHERE player_id = (r->>'player_id')::uuid;
    ELSIF op = 'player_vacation_end' THEN
        UPDATE players SET vacation_until = (r->>'at')::timestamptz WHERE player_id = (r->>'player_id')::uuid;
    ELSE
        PERFORM fd_apply_shared(p_stream, p_effect);
    END IF;
END $$;

-- Authentication: the player and token id of a live token, and its last use recorded, in
-- one call (token_usage is operational: not a projection, never rebuilt).
CREATE FUNCTION fd_use_token(p_sha text, p_now timestamptz)
RETURNS TABLE (player_id uuid, name text, token_id uuid)
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    WITH t AS (
        SELECT k.token_id AS tid, p.player_id AS pid, p.name AS pname FROM player_tokens k
        JOIN players p ON p.player_id = k.player_id WHERE k.token_sha256 = p_sha AND k.revoked_at IS NULL
    ), u AS (
        INSERT INTO token_usage (token_id, last_used_at) SELECT tid, p_now FROM t
        ON CONFLICT (token_id) DO UPDATE SET last_used_at = EXCLUDED.last_used_at
    )
    SELECT pid, pname, tid FROM t
$$;

-- as 008: the functions are the owner's and nobody else's; the service reads the new
-- tables and calls the authentication
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb), fd_apply_shared(uuid, jsonb), fd_int_array(jsonb),
        fd_use_token(text, timestamptz) FROM PUBLIC;
    GRANT SELECT ON player_tokens, token_usage TO facedown_app;
    GRANT EXECUTE ON FUNCTION fd_use_token(text, timestamptz) TO facedown_app;
END $$;
