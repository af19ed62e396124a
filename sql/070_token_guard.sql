-- A request's check that its bearer token (or session) is still live, sent ahead of the
-- request's first statement in the same round trip (events/db.py: Database.guard). It raises
-- rather than answering false: the statements queued after it until the round trip's end are
-- then skipped by the server, an append included, so a revoked token changes nothing and learns
-- nothing, and a live one costs no round trip of its own (docs/performance.md, issue 32).
-- Not SECURITY DEFINER: it reads what the service role may read (013 grants player_tokens).
CREATE FUNCTION fd_require_live_token(p_digest text) RETURNS void
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM 1 FROM public.player_tokens t WHERE t.token_sha256 = p_digest AND t.revoked_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'facedown: the token is not live' USING ERRCODE = 'invalid_authorization_specification';
    END IF;
END $$;

REVOKE ALL ON FUNCTION fd_require_live_token(text) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION fd_require_live_token(text) TO facedown_app;
END $$;
