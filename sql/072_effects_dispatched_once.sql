-- Every command's append applies a game_progress effect (the game index's row), and about a
-- third of them a notify (the players' notifications). Since 013 each migration that added
-- kinds of effect wrapped fd_apply in one more function (014, 030, 040, 050, 060), so those two
-- went through six SECURITY DEFINER calls, each with its own search_path to set and restore,
-- before the one that writes them: about a sixth of the append's time in PostgreSQL
-- (pg_stat_user_functions, docs/performance.md). They now go straight to the function that
-- writes them; every other kind goes down the chain as before, under the name fd_apply_by_kind.
--
-- On a Citus coordinator sql/citus/functions.sql puts its own fd_apply in front after every
-- migration (it writes game_progress itself, and keeps this one as fd_apply_plain).
ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_by_kind;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    CASE p_effect->>'op'
        WHEN 'game_progress' THEN
            PERFORM fd_apply_accounts(p_stream, p_effect);  -- sql/013's fd_apply, renamed by 014
        WHEN 'notify' THEN
            PERFORM fd_insert_notifications(p_effect->'items');  -- as sql/007's fd_apply does
        ELSE
            PERFORM fd_apply_by_kind(p_stream, p_effect);
    END CASE;
END $$;

-- as 008 and the migrations since: the functions are the owner's alone
REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb), fd_apply_by_kind(uuid, jsonb) FROM PUBLIC;
