-- The life of a correspondence game (per-game time control, vacations, resignations,
-- votes, invitations, rematches) as the game index shows it. Every column is a
-- projection of the game's events (service.projections.index_row), rebuilt with the index.

-- a game the service ended before its rules did: cancelled while open, aborted by a vote
ALTER TABLE game_index DROP CONSTRAINT game_index_status_check;
ALTER TABLE game_index ADD CONSTRAINT game_index_status_check
    CHECK (status IN ('open', 'active', 'finished', 'aborted', 'cancelled'));

ALTER TABLE game_index
    ADD COLUMN visibility   text        NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'unlisted')),
    ADD COLUMN creator      uuid,
    ADD COLUMN free_seats   int         NOT NULL DEFAULT 0,  -- neither taken nor kept for an invitee
    ADD COLUMN round        int,
    ADD COLUMN scores       int[],
    ADD COLUMN winners      int[],
    -- seats with any legal action now (a claim included): the seat's own list reads it
    ADD COLUMN may_act      int[]       NOT NULL DEFAULT '{}',
    -- the moment the server next has something to do (a wait times out, a bot's move):
    -- computed from the game's own time control and vacations, so the sweep is an index scan
    ADD COLUMN deadline_due timestamptz,
    ADD COLUMN deadline     jsonb,      -- the deadline as summaries show it, per awaited seat
    ADD COLUMN time_control jsonb,
    ADD COLUMN rematch_of   uuid,
    ADD COLUMN next_game    uuid;

-- rows written before this migration: what the log says without re-folding it (the
-- time control of such games is the former service default: 72 h a turn, 24 h a window);
-- service.projections.rebuild_index() recomputes every column exactly
UPDATE game_index SET
    free_seats = (SELECT count(*) FROM jsonb_array_elements(seats) s WHERE s->>'player_id' IS NULL),
    may_act = awaiting,
    time_control = '{"turn_seconds": 259200, "final_window_seconds": 86400}',
    deadline_due = deadline_since + CASE deadline_kind WHEN 'final_window' THEN interval '24 hours'
                                                       ELSE interval '72 hours' END
    WHERE status = 'active' OR status = 'open';

CREATE INDEX game_index_due ON game_index (deadline_due) WHERE deadline_due IS NOT NULL;
-- GET /v1/games: public games, newest first (keyset pagination on updated_at, stream_id)
CREATE INDEX game_index_public ON game_index (updated_at DESC, stream_id DESC) WHERE visibility = 'public';
CREATE INDEX game_index_public_status ON game_index (status, updated_at DESC, stream_id DESC)
    WHERE visibility = 'public';

-- who sits where, and who is invited: /v1/me/games reads a player's rows by its primary key
ALTER TABLE game_players
    ADD COLUMN seat int,
    ADD COLUMN role text NOT NULL DEFAULT 'seated' CHECK (role IN ('seated', 'invited'));
UPDATE game_players p SET seat = (s->>'seat')::int
    FROM game_index g, jsonb_array_elements(g.seats) s
    WHERE g.stream_id = p.stream_id AND s->>'player_id' = p.player_id::text;
