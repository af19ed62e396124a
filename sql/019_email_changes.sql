-- A player's address replaced or withdrawn.
--
-- A player withdraws their e-mail address (DELETE /v1/me/email): it is forgotten, not just
-- hidden. The address row goes, with every verification token of the player (each holds the
-- address it was made for), and the player's e-mail rows forget it too: a pending row is
-- skipped (a verification e-mail to the withdrawn address, a sign-in code, news) and its
-- secret dropped, and every row, pending or settled, loses the address it carried
-- (to_address, and the verification e-mail's args.address). Returns whether there was an
-- address to forget.
CREATE FUNCTION fd_forget_email(p_player uuid, p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    had boolean;
BEGIN
    DELETE FROM player_emails e WHERE e.player_id = p_player;
    had := FOUND;
    DELETE FROM email_tokens t WHERE t.player_id = p_player;
    -- one statement per table, each on one player's rows (one shard on Citus)
    DELETE FROM mail_secrets s WHERE s.player_id = p_player AND s.mail_id IN (
        SELECT o.mail_id FROM mail_outbox o WHERE o.player_id = p_player AND o.status = 'pending');
    UPDATE mail_outbox o SET status = 'skipped', last_error = 'the address was withdrawn', finished_at = p_now
        WHERE o.player_id = p_player AND o.status = 'pending';
    UPDATE mail_outbox o SET to_address = NULL, args = o.args - 'address'
        WHERE o.player_id = p_player AND (o.to_address IS NOT NULL OR o.args ? 'address');
    RETURN had;
END $$;

-- A new address in place of the one given before (PUT /v1/me/email), as fd_set_email (016)
-- does it, and the verification e-mail of the earlier address, if it has not gone yet, does
-- not go (its link would verify nothing: 'changed'; and an address mistyped then corrected is
-- sent nothing). The earlier tokens stay, so that their links say why they verify nothing.
CREATE FUNCTION fd_change_email(p_player uuid, p_email text, p_token_sha256 text, p_expires timestamptz,
                                p_now timestamptz, p_mail jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    DELETE FROM mail_secrets s WHERE s.player_id = p_player AND s.mail_id IN (
        SELECT o.mail_id FROM mail_outbox o
        WHERE o.player_id = p_player AND o.status = 'pending' AND o.kind = 'verify_email');
    UPDATE mail_outbox o SET status = 'skipped', last_error = 'a newer address was given', finished_at = p_now
        WHERE o.player_id = p_player AND o.status = 'pending' AND o.kind = 'verify_email';
    PERFORM fd_set_email(p_player, p_email, p_token_sha256, p_expires, p_now, p_mail);
END $$;

REVOKE ALL ON FUNCTION fd_forget_email(uuid, timestamptz),
    fd_change_email(uuid, text, text, timestamptz, timestamptz, jsonb) FROM PUBLIC;

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        RETURN;
    END IF;
    GRANT EXECUTE ON FUNCTION fd_forget_email(uuid, timestamptz),
        fd_change_email(uuid, text, text, timestamptz, timestamptz, jsonb) TO facedown_app;
END $$;
