-- A game chat's messages (sql/050, docs/chat.md) may follow a player out of the page: the
-- `chat` notification joins the kinds an e-mail or a push may be about (sql/016). Whether it
-- goes is the player's settings' (service/model/reach.py: pushed by default, e-mailed only to
-- who asks). A player without settings follows every kind, as before; the senders decide.
CREATE OR REPLACE FUNCTION fd_reach_kinds() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY['your_turn', 'game_over', 'invited', 'chat'] $$;
