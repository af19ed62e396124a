-- The role the service acts as (SET ROLE after connecting): it may read and append,
-- never UPDATE, DELETE or TRUNCATE the log. Creating a role needs CREATEROLE; where the
-- migrating user lacks it, the triggers of 001 remain the protection.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        BEGIN
            CREATE ROLE facedown_app NOLOGIN;
        EXCEPTION WHEN duplicate_object OR insufficient_privilege THEN
            RAISE NOTICE 'facedown_app role not created: %', SQLERRM;
        END;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facedown_app') THEN
        EXECUTE 'GRANT USAGE ON SCHEMA public TO facedown_app';
        EXECUTE 'GRANT SELECT, INSERT ON events, processed_commands TO facedown_app';
        EXECUTE 'GRANT SELECT, INSERT, UPDATE ON streams TO facedown_app';
        EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON snapshots TO facedown_app';
        EXECUTE 'GRANT EXECUTE ON FUNCTION fd_append(uuid, text, bigint, text, text, jsonb, text, bytea, boolean) TO facedown_app';
        -- tables added by later migrations are read models: full DML for the service
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO facedown_app';
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO facedown_app';
    END IF;
END $$;
