-- Notifications (each player's own sequence of news) and signed webhooks (their outbox).
--
-- A notification is written in the same transaction as the events that cause it: the
-- append function applies it as one of its effects (007). Each player's notifications are
-- numbered 1, 2, 3, ... by notification_heads, whose row is locked by the append that
-- numbers them, so a player's sequence is gap-free and in commit order: a client that
-- resumes "after N" misses nothing.

CREATE TABLE notification_heads (
    player_id uuid   PRIMARY KEY,
    seq       bigint NOT NULL
);

CREATE TABLE notifications (
    player_id  uuid        NOT NULL,
    seq        bigint      NOT NULL,
    kind       text        NOT NULL,
    game_id    uuid,
    version    bigint,
    seats      int[]       NOT NULL DEFAULT '{}',
    data       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    -- at most one notification per (player, dedup key): the sweeper's deadline_soon
    dedup_key  text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, seq)
);
CREATE UNIQUE INDEX notifications_dedup ON notifications (player_id, dedup_key) WHERE dedup_key IS NOT NULL;

-- Webhooks: a projection of WebhookAdded / WebhookRemoved in the player's stream, with the
-- delivery state the worker keeps. The signing secret is not in the log (an event is
-- forever): it lives beside, like a game's secret, readable only through the functions.
CREATE TABLE webhooks (
    webhook_id  uuid        PRIMARY KEY,
    player_id   uuid        NOT NULL,
    url         text        NOT NULL,
    events      text[]      NOT NULL,
    enabled     boolean     NOT NULL DEFAULT true,
    -- deliveries that failed for good in a row; past the limit the webhook is disabled
    failures    int         NOT NULL DEFAULT 0,
    disabled_reason text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    removed     boolean     NOT NULL DEFAULT false
);
CREATE INDEX webhooks_player ON webhooks (player_id) WHERE NOT removed;

CREATE TABLE webhook_secrets (
    webhook_id uuid  PRIMARY KEY,
    secret     bytea NOT NULL
);

-- The outbox: one row per (webhook, notification), written with the notification. The
-- worker sends due rows and records every attempt; a row is done only after a 2xx answer,
-- so a worker killed mid-send loses nothing (the row is sent again, with the same
-- webhook-id: receivers deduplicate by it).
CREATE TABLE webhook_deliveries (
    delivery_id    uuid        PRIMARY KEY,
    webhook_id     uuid        NOT NULL,
    player_id      uuid        NOT NULL,
    seq            bigint      NOT NULL,
    status         text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts       int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_status    int,
    last_error     text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    UNIQUE (webhook_id, player_id, seq)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_of ON webhook_deliveries (webhook_id, created_at DESC);

-- Every attempt, for GET /v1/me/webhooks/{id}/deliveries
CREATE TABLE webhook_attempts (
    delivery_id uuid        NOT NULL,
    attempt     int         NOT NULL,
    at          timestamptz NOT NULL DEFAULT now(),
    status      int,
    error       text,
    duration_ms int,
    PRIMARY KEY (delivery_id, attempt)
);
