-- Read models of the REST API (projections; rebuildable from the event log) and the
-- per-game server secret, which no endpoint exposes until SecretRevealed is appended.

-- Players: projection of PlayerRegistered (stream kind 'player'); auth reads it.
CREATE TABLE players (
    player_id    uuid        PRIMARY KEY,
    name         text        NOT NULL,
    token_sha256 text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- The server's secret of each game, drawn at creation (its sha256 is public in GameOpened).
CREATE TABLE game_secrets (
    stream_id uuid  PRIMARY KEY,
    secret    bytea NOT NULL
);

-- One row per game: what lists and "my games" read. Rebuilt from events by
-- service.games.rebuild_index().
CREATE TABLE game_index (
    stream_id   uuid        PRIMARY KEY,
    ruleset     text        NOT NULL,
    name        text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('open', 'active', 'finished')),
    seats       jsonb       NOT NULL,
    awaiting    int[]       NOT NULL DEFAULT '{}',
    player_ids  uuid[]      NOT NULL DEFAULT '{}',
    updated_at  timestamptz NOT NULL,
    version     bigint      NOT NULL
);
CREATE INDEX game_index_status ON game_index (status, updated_at DESC);
CREATE INDEX game_index_players ON game_index USING gin (player_ids);
