-- Players' accounts: a handle, vacations and several bearer tokens, each a projection of
-- the player's stream (service.players.rebuild_players), and the time each token was last
-- used (operational only: not a projection, never rebuilt; losing it loses only that).

ALTER TABLE players
    ADD COLUMN handle         text,
    ADD COLUMN vacation_from  timestamptz,
    ADD COLUMN vacation_until timestamptz;
-- unique whatever the case: "Ann" and "ann" are one handle
CREATE UNIQUE INDEX players_handle ON players (lower(handle));

CREATE TABLE player_tokens (
    token_id     uuid        PRIMARY KEY,
    player_id    uuid        NOT NULL,
    token_sha256 text        NOT NULL UNIQUE,
    label        text        NOT NULL,
    created_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);
CREATE INDEX player_tokens_player ON player_tokens (player_id);
-- the token of a registration has the player's own id
INSERT INTO player_tokens (token_id, player_id, token_sha256, label, created_at)
    SELECT player_id, player_id, token_sha256, 'registration', created_at FROM players;

CREATE TABLE token_usage (
    token_id     uuid        PRIMARY KEY,
    last_used_at timestamptz NOT NULL
);
