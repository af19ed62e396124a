-- Ratings per ruleset (docs/ratings.md): a projection of the game logs, written by the append
-- that ends a rated game, in its transaction (the effect 'ratings' below), and rebuilt from
-- the logs by `facedown ratings rebuild`. And bot accounts: marked at registration (the
-- PlayerRegistered event's "bot"), shown as bots.
--   player   {..., bot}: as 013, and the account marked a bot's
--   ratings  {ruleset, at?, players: [{player_id, seat, rank, games, mu_before, sigma_before,
--            mu_after, sigma_after}]}: each player's rating in the game's ruleset moves from
--            before to after, their history gains the game, and the game keeps its changes.
--
-- Concurrency. The service computes a game's new ratings (OpenSkill, in Python) from the
-- ratings it read before the append, each with the number of rated games it counts
-- (`games`). Two games that end at once and share a player must not both start from the
-- same rating: the effect locks each player's row (FOR UPDATE, in player order, so two
-- appends never deadlock; before any notification head, which 007 locks in the same way),
-- and if a row no longer counts the games the computation started from, it raises
-- serialization_failure ('ratings moved'): the whole append rolls back and the service
-- decides it again from the stored head and the fresh ratings. So each player's ratings
-- follow one another in the order their games' appends commit, each computed from the one
-- before it.

ALTER TABLE players ADD COLUMN bot boolean NOT NULL DEFAULT false;

-- a player's current rating in a ruleset (games: the rated games it counts)
CREATE TABLE ratings (
    player_id  uuid             NOT NULL,
    ruleset    text             NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL,
    rating     double precision NOT NULL,  -- mu - 3 sigma, what the leaderboard orders by
    games      int              NOT NULL,
    updated_at timestamptz      NOT NULL,
    PRIMARY KEY (player_id, ruleset)
);
CREATE INDEX ratings_board ON ratings (ruleset, rating DESC, player_id);

-- one row per rated game of a player: the player's n-th in the ruleset
CREATE TABLE rating_history (
    player_id    uuid             NOT NULL,
    ruleset      text             NOT NULL,
    n            int              NOT NULL,
    game_id      uuid             NOT NULL,
    seat         int              NOT NULL,
    rank         int              NOT NULL,
    mu_before    double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu_after     double precision NOT NULL,
    sigma_after  double precision NOT NULL,
    at           timestamptz      NOT NULL,
    PRIMARY KEY (player_id, ruleset, n)
);

-- a rated game's changes, per seat, as the game shows them (keyed by the game: its node on Citus)
CREATE TABLE game_ratings (
    stream_id uuid        PRIMARY KEY,
    ruleset   text        NOT NULL,
    changes   jsonb       NOT NULL,
    at        timestamptz NOT NULL
);

-- One statement per row (no data-modifying CTE, no subquery in VALUES): Citus plans each
-- as one shard's, so this function needs no Citus form (sql/citus/functions.sql).
CREATE FUNCTION fd_apply_ratings(p_stream uuid, r jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    p      jsonb;
    pid    uuid;
    rs     text := r->>'ruleset';
    counts int;
    v_mu    double precision;
    v_sigma double precision;
    -- a rebuild gives the time the game ended; the append's own transaction began with it
    v_at    timestamptz := coalesce((r->>'at')::timestamptz, now());
BEGIN
    FOR p IN SELECT e FROM jsonb_array_elements(r->'players') e ORDER BY (e->>'player_id')::uuid LOOP
        pid := (p->>'player_id')::uuid;
        -- a first rated game: the row starts at the rating the computation started from
        INSERT INTO ratings (player_id, ruleset, mu, sigma, rating, games, updated_at)
        VALUES (pid, rs, (p->>'mu_before')::float8, (p->>'sigma_before')::float8,
                (p->>'mu_before')::float8 - 3 * (p->>'sigma_before')::float8, 0, v_at)
        ON CONFLICT (player_id, ruleset) DO NOTHING;
        SELECT t.games INTO counts FROM ratings t WHERE t.player_id = pid AND t.ruleset = rs FOR UPDATE;
        IF counts <> (p->>'games')::int THEN
            RAISE EXCEPTION 'facedown: ratings moved (player %, % games, computed on %)', pid, counts, p->>'games'
                USING ERRCODE = 'serialization_failure';
        END IF;
        v_mu := (p->>'mu_after')::float8;
        v_sigma := (p->>'sigma_after')::float8;
        UPDATE ratings t SET mu = v_mu, sigma = v_sigma, rating = v_mu - 3 * v_sigma, games = counts + 1,
            updated_at = v_at
        WHERE t.player_id = pid AND t.ruleset = rs;
        INSERT INTO rating_history (player_id, ruleset, n, game_id, seat, rank, mu_before, sigma_before,
                                    mu_after, sigma_after, at)
        VALUES (pid, rs, counts + 1, p_stream, (p->>'seat')::int, (p->>'rank')::int, (p->>'mu_before')::float8,
                (p->>'sigma_before')::float8, v_mu, v_sigma, v_at);
    END LOOP;
    INSERT INTO game_ratings (stream_id, ruleset, changes, at) VALUES (p_stream, rs, r->'players', v_at);
END $$;

ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_before_ratings;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    op text := p_effect->>'op';
    r  jsonb := p_effect->'row';
BEGIN
    IF op = 'ratings' THEN
        PERFORM fd_apply_ratings(p_stream, r);
        RETURN;
    END IF;
    PERFORM fd_apply_before_ratings(p_stream, p_effect);
    IF op = 'player' AND coalesce((r->>'bot')::boolean, false) THEN
        UPDATE players SET bot = true WHERE player_id = (r->>'player_id')::uuid;
    END IF;
END $$;

-- as 008: the functions are the owner's alone; the service reads the new tables
REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb), fd_apply_before_ratings(uuid, jsonb), fd_apply_ratings(uuid, jsonb)
    FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT SELECT ON ratings, rating_history, game_ratings TO facedown_app;
END $$;
