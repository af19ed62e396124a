-- Who sits in which game, written once per seat instead of on every command: the
-- per-command update of game_index touches only what a command changes (status,
-- awaiting, updated_at, version), and no longer re-indexes a GIN array of player ids.
-- Rebuilt with game_index by service.games.rebuild_index().
CREATE TABLE game_players (
    player_id uuid NOT NULL,
    stream_id uuid NOT NULL,
    PRIMARY KEY (player_id, stream_id)
);
INSERT INTO game_players (player_id, stream_id)
    SELECT DISTINCT unnest(player_ids), stream_id FROM game_index;
DROP INDEX game_index_players;
ALTER TABLE game_index DROP COLUMN player_ids;
