-- Transparency (docs/fairness.md, "Checkpoints, proofs and witnesses"): the server's log key,
-- the server-wide log of finished games, and the witnesses' cosignatures. A game's own tree
-- needs no table: its leaves are the chain hashes of its events (001), and a checkpoint is
-- signed again the same way whenever it is asked for (Ed25519 signatures are deterministic).

-- The server's Ed25519 log key, made once at the first start: one row. The private key is
-- readable only through fd_log_key, as the VAPID key through fd_vapid_key (016). Its name is
-- kept with it: the name is part of the key's ID, so it never changes once notes are signed.
CREATE TABLE log_keys (
    key_id      int         PRIMARY KEY CHECK (key_id = 1),
    name        text        NOT NULL,
    public_key  bytea       NOT NULL CHECK (length(public_key) = 32),
    private_key bytea       NOT NULL CHECK (length(private_key) = 32),
    created_at  timestamptz NOT NULL
);

-- The server-wide log: leaf idx is the final checkpoint (the signed note's UTF-8 bytes) of
-- the idx-th game to finish. Written by the append that finishes the game (fd_log_finished,
-- as an effect of fd_append), so a game is finished exactly when its leaf exists.
CREATE TABLE log_entries (
    idx         bigint      PRIMARY KEY CHECK (idx >= 0),
    game_id     uuid        NOT NULL UNIQUE,
    note        text        NOT NULL,
    leaf_hash   bytea       NOT NULL,  -- sha256(0x00 || note): the tree's leaf
    recorded_at timestamptz NOT NULL DEFAULT now()
);

-- The log's size. Its one row is the order of the log: a finishing append takes its lock
-- (UPDATE) and holds it to its commit, so leaves are numbered in commit order, with no gap
-- (a sequence would leave one for each rollback, and number in the order of the draws, not
-- of the commits). Only the appends that finish a game wait on it.
CREATE TABLE log_head (
    id   int    PRIMARY KEY CHECK (id = 1),
    size bigint NOT NULL
);
INSERT INTO log_head (id, size) VALUES (1, 0);

-- The latest cosignature of each witness (its signature line on the log's checkpoint of
-- that size), shown beside the log's checkpoint while the log is at that size.
CREATE TABLE log_cosignatures (
    witness     text        PRIMARY KEY,  -- the witness's key name and ID: name+hexid
    size        bigint      NOT NULL,
    line        text        NOT NULL,
    signed_at   bigint      NOT NULL,     -- the cosignature's own timestamp (POSIX seconds)
    received_at timestamptz NOT NULL
);

CREATE TRIGGER log_entries_no_update BEFORE UPDATE OR DELETE ON log_entries
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();
CREATE TRIGGER log_entries_no_truncate BEFORE TRUNCATE ON log_entries
    FOR EACH STATEMENT EXECUTE FUNCTION fd_reject_change();

-- The first caller's key is kept; every caller gets the kept one back.
CREATE FUNCTION fd_log_key(p_name text, p_public bytea, p_private bytea, p_now timestamptz)
RETURNS TABLE (name text, public_key bytea, private_key bytea)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO log_keys (key_id, name, public_key, private_key, created_at)
    VALUES (1, p_name, p_public, p_private, p_now) ON CONFLICT (key_id) DO NOTHING;
    RETURN QUERY SELECT k.name, k.public_key, k.private_key FROM log_keys k WHERE k.key_id = 1;
END $$;

-- A finished game's leaf (once: a game's leaf is never written twice); returns its index.
CREATE FUNCTION fd_log_finished(p_game uuid, p_note text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    i bigint;
BEGIN
    SELECT e.idx INTO i FROM log_entries e WHERE e.game_id = p_game;
    IF FOUND THEN
        RETURN i;
    END IF;
    UPDATE log_head h SET size = h.size + 1 WHERE h.id = 1 RETURNING h.size - 1 INTO i;
    INSERT INTO log_entries (idx, game_id, note, leaf_hash)
    VALUES (i, p_game, p_note, sha256('\x00'::bytea || convert_to(p_note, 'UTF8')));
    RETURN i;
END $$;

-- Keep a witness's cosignature unless the one kept is of a larger tree.
CREATE FUNCTION fd_log_cosign(p_witness text, p_size bigint, p_line text, p_signed_at bigint, p_now timestamptz)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO log_cosignatures (witness, size, line, signed_at, received_at)
    VALUES (p_witness, p_size, p_line, p_signed_at, p_now)
    ON CONFLICT (witness) DO UPDATE SET size = EXCLUDED.size, line = EXCLUDED.line,
        signed_at = EXCLUDED.signed_at, received_at = EXCLUDED.received_at
    WHERE log_cosignatures.size <= EXCLUDED.size;
    RETURN FOUND;
END $$;

-- The append's new effect, log_finished {row: {game_id, note}}: the rest go on as before.
ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_before_log;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_effect->>'op' = 'log_finished' THEN
        PERFORM fd_log_finished((p_effect->'row'->>'game_id')::uuid, p_effect->'row'->>'note');
    ELSE
        PERFORM fd_apply_before_log(p_stream, p_effect);
    END IF;
END $$;

-- as 008: the functions are the owner's alone; the service reads the log and the
-- cosignatures (not the key's table) and calls the functions it needs
REVOKE ALL ON FUNCTION fd_log_key(text, bytea, bytea, timestamptz), fd_log_finished(uuid, text),
    fd_log_cosign(text, bigint, text, bigint, timestamptz), fd_apply(uuid, jsonb),
    fd_apply_before_log(uuid, jsonb) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT SELECT ON log_entries, log_head, log_cosignatures TO facedown_app;
    GRANT EXECUTE ON FUNCTION fd_log_key(text, bytea, bytea, timestamptz),
        fd_log_cosign(text, bigint, text, bigint, timestamptz) TO facedown_app;
END $$;
