-- Game chat (docs/chat.md). A game's chat is a stream of its own (kind 'chat', its id derived
-- from the game's: service/model/chat.py), beside the game's log and never in the rules'
-- events: ChatMessagePosted, ChatMessageReported, ChatMessageHidden. These tables are its
-- projection, written by the chat stream's appends (effects, as sql/007), so that reading a
-- game's chat is one query; a player's mutes are events of the player's own stream
-- (PlayerMuted, PlayerUnmuted) projected into player_mutes.
--   chat_message {n, game_id, seat, player_id, text, at}     (n: the message's stream version)
--   chat_report  {version, n, game_id, reporter, reason, at} (version: the report's)
--   chat_hidden  {n, at, version}                          (version: the hide's)
--   mute         {muted, at}      unmute {muted}           (p_stream: the muting player)

CREATE TABLE chat_messages (
    stream_id uuid        NOT NULL,  -- the chat stream
    n         bigint      NOT NULL,
    game_id   uuid        NOT NULL,
    seat      int         NOT NULL,
    player_id uuid        NOT NULL,
    text      text        NOT NULL,
    at        timestamptz NOT NULL,
    hidden_at timestamptz,
    hidden_version bigint,            -- the hide's own version: where a stream tells of it
    PRIMARY KEY (stream_id, n)
);

CREATE TABLE chat_reports (
    stream_id uuid        NOT NULL,
    version   bigint      NOT NULL,
    n         bigint      NOT NULL,
    game_id   uuid        NOT NULL,
    reporter  uuid        NOT NULL,
    reason    text        NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (stream_id, version)
);
CREATE INDEX chat_reports_at ON chat_reports (at);

CREATE TABLE player_mutes (
    player_id uuid        NOT NULL,  -- who muted
    muted     uuid        NOT NULL,  -- whom
    at        timestamptz NOT NULL,
    PRIMARY KEY (player_id, muted)
);

-- the chat's effects, in a function of their own: the Citus form of fd_apply
-- (sql/citus/functions.sql) calls it by name too
CREATE FUNCTION fd_apply_chat(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    op text := p_effect->>'op';
    r  jsonb := p_effect->'row';
BEGIN
    IF op = 'chat_message' THEN
        INSERT INTO chat_messages (stream_id, n, game_id, seat, player_id, text, at)
        VALUES (p_stream, (r->>'n')::bigint, (r->>'game_id')::uuid, (r->>'seat')::int,
                (r->>'player_id')::uuid, r->>'text', (r->>'at')::timestamptz)
        ON CONFLICT (stream_id, n) DO NOTHING;
    ELSIF op = 'chat_hidden' THEN
        UPDATE chat_messages m SET hidden_at = (r->>'at')::timestamptz, hidden_version = (r->>'version')::bigint
        WHERE m.stream_id = p_stream AND m.n = (r->>'n')::bigint AND m.hidden_at IS NULL;
    ELSIF op = 'chat_report' THEN
        INSERT INTO chat_reports (stream_id, version, n, game_id, reporter, reason, at)
        VALUES (p_stream, (r->>'version')::bigint, (r->>'n')::bigint, (r->>'game_id')::uuid,
                (r->>'reporter')::uuid, r->>'reason', (r->>'at')::timestamptz)
        ON CONFLICT (stream_id, version) DO NOTHING;
    ELSIF op = 'mute' THEN
        INSERT INTO player_mutes (player_id, muted, at)
        VALUES (p_stream, (r->>'muted')::uuid, (r->>'at')::timestamptz)
        ON CONFLICT (player_id, muted) DO NOTHING;
    ELSIF op = 'unmute' THEN
        DELETE FROM player_mutes m WHERE m.player_id = p_stream AND m.muted = (r->>'muted')::uuid;
    ELSE
        RAISE EXCEPTION 'facedown: unknown effect %', op USING ERRCODE = 'invalid_parameter_value';
    END IF;
END $$;

ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_before_chat;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_effect->>'op' IN ('chat_message', 'chat_hidden', 'chat_report', 'mute', 'unmute') THEN
        PERFORM fd_apply_chat(p_stream, p_effect);
    ELSE
        PERFORM fd_apply_before_chat(p_stream, p_effect);
    END IF;
END $$;

-- as 008, 013, 014: the functions are the owner's alone; the service reads the new tables
REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb), fd_apply_before_chat(uuid, jsonb), fd_apply_chat(uuid, jsonb)
    FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT SELECT ON chat_messages, chat_reports, player_mutes TO facedown_app;
END $$;
