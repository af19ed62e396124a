-- One-time sign-in codes for the web client (service/sessions.py): a signed-in browser asks
-- for a short code, and another device exchanges it, once, within minutes, for a session.
-- Each code is an event of its player's stream (SignInCodeIssued, SignInCodeUsed); this
-- table is their projection, read to find whose a typed code is (only its SHA-256 is
-- kept). Single use is decided on the player's stream (a version-checked append), not here.
--   signin_code      {code_id, player_id, code_sha256, created_at, expires_at}
--   signin_code_used {code_id, at}
-- A browser's session itself is a bearer token of the player (TokenIssued, labelled as a
-- web session), held in an HttpOnly cookie: player_tokens already stores it.

CREATE TABLE signin_codes (
    code_id     uuid        PRIMARY KEY,
    player_id   uuid        NOT NULL,
    code_sha256 text        NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX signin_codes_player ON signin_codes (player_id);

ALTER FUNCTION fd_apply(uuid, jsonb) RENAME TO fd_apply_accounts;

CREATE FUNCTION fd_apply(p_stream uuid, p_effect jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    op text := p_effect->>'op';
    r  jsonb := p_effect->'row';
BEGIN
    IF op = 'signin_code' THEN
        INSERT INTO signin_codes (code_id, player_id, code_sha256, created_at, expires_at)
        VALUES ((r->>'code_id')::uuid, (r->>'player_id')::uuid, r->>'code_sha256',
                (r->>'created_at')::timestamptz, (r->>'expires_at')::timestamptz)
        ON CONFLICT (code_id) DO NOTHING;
    ELSIF op = 'signin_code_used' THEN
        UPDATE signin_codes SET used_at = (r->>'at')::timestamptz WHERE code_id = (r->>'code_id')::uuid;
    ELSE
        PERFORM fd_apply_accounts(p_stream, p_effect);
    END IF;
END $$;

-- as 008 and 013: the functions are the owner's alone; the service reads the new table
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    REVOKE ALL ON FUNCTION fd_apply(uuid, jsonb), fd_apply_accounts(uuid, jsonb) FROM PUBLIC;
    GRANT SELECT ON signin_codes TO facedown_app;
END $$;
