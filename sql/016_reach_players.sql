-- Reaching a player whose page is closed (e-mail, Web Push, reminders), part one: where a
-- player can be reached and how they want to be. None of it is in the log: an address is
-- personal data its owner changes or withdraws, a push subscription is a browser's
-- capability, and an event is forever. Each table sits beside the log, like a game's secret,
-- is not a projection (never rebuilt), and is written only through the functions below
-- (SECURITY DEFINER, owned by facedown_owner, as 008 has every write).

-- A player's address: the latest one they gave, verified or not yet. A verified address
-- belongs to one account (sign-in by e-mail finds the account by it): verifying it takes it
-- from any other account that had it verified.
CREATE TABLE player_emails (
    player_id   uuid        PRIMARY KEY,
    email       text        NOT NULL,
    verified_at timestamptz,
    updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX player_emails_verified ON player_emails (lower(email)) WHERE verified_at IS NOT NULL;

-- The links that verify an address: single use, with an expiry, only the token's SHA-256 kept
-- (the token itself travels in the e-mail only: see mail_secrets in 017).
CREATE TABLE email_tokens (
    token_sha256 text        PRIMARY KEY,
    player_id    uuid        NOT NULL,
    email        text        NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE INDEX email_tokens_player ON email_tokens (player_id);

-- The server's VAPID key pair (RFC 8292), made once at the first start: one row. The private
-- key is readable only through fd_vapid_key, as a game's secret through fd_get_secret.
CREATE TABLE vapid_keys (
    key_id      int         PRIMARY KEY CHECK (key_id = 1),
    public_key  text        NOT NULL,  -- base64url, the uncompressed P-256 point
    private_key bytea       NOT NULL,  -- PKCS #8, DER
    created_at  timestamptz NOT NULL
);

-- A player's push subscriptions (one per browser that subscribed). The auth secret sits
-- beside them, read only by the sender's claim (017), as a webhook's secret does.
CREATE TABLE push_subscriptions (
    player_id       uuid        NOT NULL,
    subscription_id uuid        NOT NULL,
    endpoint        text        NOT NULL,
    p256dh          text        NOT NULL,  -- the browser's public key, base64url
    created_at      timestamptz NOT NULL,
    last_success_at timestamptz,
    last_failure_at timestamptz,
    last_error      text,
    PRIMARY KEY (player_id, subscription_id),
    UNIQUE (player_id, endpoint)
);

CREATE TABLE push_subscription_secrets (
    player_id       uuid  NOT NULL,
    subscription_id uuid  NOT NULL,
    auth            bytea NOT NULL,
    PRIMARY KEY (player_id, subscription_id)
);

-- What a player chose about being told (only what they set: the defaults are the service's,
-- service/model/reach.py), and the kinds of news each channel follows under those settings,
-- computed by the service when they are saved; 017's outboxes are written by them. A player
-- without a row has every kind a channel may carry (fd_reach_kinds) followed, and the
-- service's defaults decide when sending.
CREATE TABLE notification_settings (
    player_id   uuid        PRIMARY KEY,
    settings    jsonb       NOT NULL,
    email_kinds text[]      NOT NULL,
    push_kinds  text[]      NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- The kinds of notification an e-mail or a push may be about (the others, a reaction window
-- or a round's end, are too fleeting to follow a player out of the page).
CREATE FUNCTION fd_reach_kinds() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY['your_turn', 'game_over', 'invited'] $$;

-- The first caller's key pair is kept; every caller gets the kept one back (several
-- processes starting at once agree on one pair).
CREATE FUNCTION fd_vapid_key(p_public text, p_private bytea, p_now timestamptz)
RETURNS TABLE (public_key text, private_key bytea)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO vapid_keys (key_id, public_key, private_key, created_at)
    VALUES (1, p_public, p_private, p_now) ON CONFLICT (key_id) DO NOTHING;
    RETURN QUERY SELECT v.public_key, v.private_key FROM vapid_keys v WHERE v.key_id = 1;
END $$;

CREATE FUNCTION fd_vapid_public() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT public_key FROM vapid_keys WHERE key_id = 1
$$;

CREATE FUNCTION fd_put_notification_settings(p_player uuid, p_settings jsonb, p_email_kinds text[],
                                             p_push_kinds text[], p_now timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO notification_settings (player_id, settings, email_kinds, push_kinds, updated_at)
    VALUES (p_player, p_settings, p_email_kinds, p_push_kinds, p_now)
    ON CONFLICT (player_id) DO UPDATE SET settings = EXCLUDED.settings, email_kinds = EXCLUDED.email_kinds,
        push_kinds = EXCLUDED.push_kinds, updated_at = EXCLUDED.updated_at;
END $$;

-- A subscription (a browser's endpoint and keys). The same endpoint again is the same
-- subscription, its keys renewed. At most p_max per player: 'too_many' beyond.
CREATE FUNCTION fd_push_subscribe(p_player uuid, p_subscription uuid, p_endpoint text, p_p256dh text,
                                  p_auth bytea, p_now timestamptz, p_max int)
RETURNS TABLE (subscription_id uuid, created_at timestamptz, status text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    sid  uuid;
    made timestamptz;
BEGIN
    SELECT s.subscription_id, s.created_at INTO sid, made FROM push_subscriptions s
        WHERE s.player_id = p_player AND s.endpoint = p_endpoint FOR UPDATE;
    IF FOUND THEN
        UPDATE push_subscriptions s SET p256dh = p_p256dh WHERE s.player_id = p_player AND s.subscription_id = sid;
        UPDATE push_subscription_secrets s SET auth = p_auth WHERE s.player_id = p_player AND s.subscription_id = sid;
        RETURN QUERY SELECT sid, made, 'renewed'::text;
        RETURN;
    END IF;
    IF (SELECT count(*) FROM push_subscriptions s WHERE s.player_id = p_player) >= p_max THEN
        RETURN QUERY SELECT NULL::uuid, NULL::timestamptz, 'too_many'::text;
        RETURN;
    END IF;
    INSERT INTO push_subscriptions (player_id, subscription_id, endpoint, p256dh, created_at)
    VALUES (p_player, p_subscription, p_endpoint, p_p256dh, p_now);
    INSERT INTO push_subscription_secrets (player_id, subscription_id, auth) VALUES (p_player, p_subscription, p_auth);
    RETURN QUERY SELECT p_subscription, p_now, 'created'::text;
END $$;

-- Whether there was such a subscription. Its pending pushes are not sent.
CREATE FUNCTION fd_push_unsubscribe(p_player uuid, p_subscription uuid) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    DELETE FROM push_subscription_secrets s WHERE s.player_id = p_player AND s.subscription_id = p_subscription;
    DELETE FROM push_subscriptions s WHERE s.player_id = p_player AND s.subscription_id = p_subscription;
    RETURN FOUND;
END $$;

-- as 008: the functions are the owner's alone (017 grants the service those it calls)
REVOKE ALL ON FUNCTION fd_reach_kinds(), fd_vapid_key(text, bytea, timestamptz), fd_vapid_public(),
    fd_put_notification_settings(uuid, jsonb, text[], text[], timestamptz),
    fd_push_subscribe(uuid, uuid, text, text, bytea, timestamptz, int), fd_push_unsubscribe(uuid, uuid)
    FROM PUBLIC;
