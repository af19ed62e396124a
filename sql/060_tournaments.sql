-- Tournaments (docs/tournaments.md). A tournament is a stream of its own (kind 'tournament')
-- beside the games' streams: TournamentOpened, PlayerJoined, PlayerLeft, TournamentStarted,
-- RoundPaired, RoundEnded, TournamentFinished, TournamentCancelled. This table is its
-- projection for lists and for the sweep (which tournaments are due to start, which are
-- running), written by the tournament stream's appends (effects, as sql/007); a tournament's
-- own page is folded from its stream.
--   tournament {version, status, name, starts_at, created_at, updated_at, listed}
--   (listed: service.model.tournament.listed, what a list shows)

CREATE TABLE tournaments (
    stream_id  uuid        PRIMARY KEY,  -- the tournament's stream
    version    bigint      NOT NULL,
    status     text        NOT NULL,
    name       text        NOT NULL,
    starts_at  timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    listed     jsonb       NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, created_at);

CREATE FUNCTION fd_apply_tournament(p_stream uuid, r jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO tournaments (stream_id, version, status, name, starts_at, created_at, updated_at, listed)
    VALUES (p_stream, (r->>'version')::bigint, r->>'status', r->>'name', (r->>'starts_at')::timestamptz,
            (r->>'created_at')::timestamptz, (r->>'updated_at')::timestamptz, r->'listed')
    ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status,
        updated_at = EXCLUDED.updated_at, listed = EXCLUDED.listed
    WHERE tournaments.version < EXCLUDED.version;
END $$;

ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_before_tournaments;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_effect->>'op' = 'tournament' THEN
        PERFORM fd_apply_tournament(p_stream, p_effect->'row');
    ELSE
        PERFORM fd_apply_before_tournaments(p_stream, p_effect);
    END IF;
END $$;

-- a table of a tournament's round is ready: a kind an e-mail or a push may carry (sql/051);
-- whether it goes follows the player's `invited` setting (service/model/reach.py)
CREATE OR REPLACE FUNCTION fd_reach_kinds() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY['your_turn', 'game_over', 'invited', 'chat', 'tournament_round'] $$;

-- as 008, 050: the functions are the owner's alone; the service reads the new table
REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb), fd_apply_before_tournaments(uuid, jsonb),
    fd_apply_tournament(uuid, jsonb) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT SELECT ON tournaments TO facedown_app;
END $$;
