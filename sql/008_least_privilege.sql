-- Least privilege. Two roles:
--   facedown_owner  (NOLOGIN) owns every table and function; migrations run as it from now
--                   on (events/migrations.py sets the role), and the SECURITY DEFINER
--                   functions run as it;
--   facedown_app    (LOGIN) is what the service logs in as: not a superuser, a member of
--                   no role (so it cannot SET ROLE to anything), owning nothing. It may
--                   SELECT what it reads and EXECUTE the append and the other write
--                   functions, and nothing else: no INSERT, UPDATE, DELETE or TRUNCATE on
--                   any table, and no read of game_secrets or webhook_secrets.
-- Creating and changing roles needs CREATEROLE: a migrating user without it leaves the
-- roles as they are (an operator then names the service's login in
-- FACEDOWN_APP_DATABASE_URL), and the triggers of 001 still protect the log.
DO $$
DECLARE
    t record;
BEGIN
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_owner') THEN
            CREATE ROLE facedown_owner NOLOGIN;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
            CREATE ROLE facedown_app;
        END IF;
        ALTER ROLE facedown_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;
        -- the migrating user must be able to act as the owner (a superuser always can)
        EXECUTE format('GRANT facedown_owner TO %I', current_user);
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'facedown roles left as they are: %', SQLERRM;
    END;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_owner')
       OR NOT pg_has_role(current_user, 'facedown_owner', 'MEMBER') THEN
        RETURN;
    END IF;
    -- the owner owns everything in the schema (tables, sequences, functions)
    FOR t IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'S', 'v') LOOP
        IF t.relkind = 'S' THEN
            EXECUTE format('ALTER SEQUENCE %I OWNER TO facedown_owner', t.relname);
        ELSIF t.relkind = 'v' THEN
            EXECUTE format('ALTER VIEW %I OWNER TO facedown_owner', t.relname);
        ELSE
            EXECUTE format('ALTER TABLE %I OWNER TO facedown_owner', t.relname);
        END IF;
    END LOOP;
    FOR t IN SELECT p.oid::regprocedure AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = 'public' AND p.proname LIKE 'fd\_%' LOOP
        EXECUTE format('ALTER FUNCTION %s OWNER TO facedown_owner', t.sig);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', t.sig);
    END LOOP;
    -- undo 002's broad grants: the service keeps only what it reads and the functions
    EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM facedown_app';
    EXECUTE 'REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM facedown_app';
    EXECUTE 'REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM facedown_app';
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM facedown_app';
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON SEQUENCES FROM facedown_app';
    EXECUTE 'REVOKE CREATE ON SCHEMA public FROM PUBLIC';
    EXECUTE 'GRANT USAGE ON SCHEMA public TO facedown_app';
    EXECUTE 'GRANT SELECT ON events, streams, snapshots, processed_commands, players, game_index, game_players,'
            ' notifications, notification_heads, webhooks, webhook_deliveries, webhook_attempts,'
            ' schema_migrations TO facedown_app';
    EXECUTE 'GRANT EXECUTE ON FUNCTION'
            ' fd_append(uuid, text, bigint, text, text, jsonb, text, bytea, boolean, jsonb),'
            ' fd_put_secret(uuid, bytea), fd_get_secret(uuid), fd_notify(jsonb),'
            ' fd_claim_deliveries(int, int),'
            ' fd_delivery_result(uuid, int, int, text, int, boolean, timestamptz, int)'
            ' TO facedown_app';
END $$;
