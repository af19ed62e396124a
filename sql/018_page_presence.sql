-- Which players have a page open now, across every process of the service: nothing is
-- e-mailed about a game while its player has it open (docs/reaching-players.md), and the one
-- process that sends e-mail is not the one holding every stream. Each process (a holder)
-- records the streams it holds as they open and close, and touches all of its rows now and
-- then; a row not touched for a while is a process that died, and counts for nothing.
-- game_id: the game whose page it is, or the nil uuid for the player's own stream (any page).
-- Operational, like token_usage: not a projection, never rebuilt, lost without harm.
CREATE TABLE page_presence (
    player_id uuid        NOT NULL,
    game_id   uuid        NOT NULL,
    holder    text        NOT NULL,
    seen_at   timestamptz NOT NULL,
    PRIMARY KEY (player_id, game_id, holder)
);
CREATE INDEX page_presence_holder ON page_presence (holder);

-- p_open: a stream opened (true) or closed (false)
CREATE FUNCTION fd_page_presence(p_holder text, p_player uuid, p_game uuid, p_open boolean, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_open THEN
        INSERT INTO page_presence (player_id, game_id, holder, seen_at) VALUES (p_player, p_game, p_holder, p_now)
        ON CONFLICT (player_id, game_id, holder) DO UPDATE SET seen_at = EXCLUDED.seen_at;
    ELSE
        DELETE FROM page_presence p WHERE p.player_id = p_player AND p.game_id = p_game AND p.holder = p_holder;
    END IF;
END $$;

-- The holder is alive: every row of it seen now; returns how many. A holder starting afresh
-- (p_reset) first drops what an earlier life of it left.
CREATE FUNCTION fd_page_presence_alive(p_holder text, p_now timestamptz, p_reset boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    n bigint;
BEGIN
    IF p_reset THEN
        DELETE FROM page_presence p WHERE p.holder = p_holder;
        RETURN 0;
    END IF;
    UPDATE page_presence p SET seen_at = p_now WHERE p.holder = p_holder;
    GET DIAGNOSTICS n = ROW_COUNT;
    -- what dead holders left, long gone, goes too
    DELETE FROM page_presence p WHERE p.seen_at < p_now - interval '1 day';
    RETURN n;
END $$;

REVOKE ALL ON FUNCTION fd_page_presence(text, uuid, uuid, boolean, timestamptz),
    fd_page_presence_alive(text, timestamptz, boolean) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT SELECT ON page_presence TO facedown_app;
    GRANT EXECUTE ON FUNCTION fd_page_presence(text, uuid, uuid, boolean, timestamptz),
        fd_page_presence_alive(text, timestamptz, boolean) TO facedown_app;
END $$;
