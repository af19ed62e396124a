-- After 008 every migration runs as facedown_owner (events/migrations.py), which owns every
-- table but may not create anything in the schema: 008 revoked CREATE from PUBLIC, and the
-- schema belongs to the database's owner. The migrating user (who may act as the owner, 008)
-- grants it CREATE on the schema, so that the migrations from here on can add tables,
-- indexes and functions. Nothing changes for the service's login, facedown_app.
DO $$
BEGIN
    IF current_user = 'facedown_owner' AND session_user <> 'facedown_owner' THEN
        EXECUTE 'RESET ROLE';
        EXECUTE 'GRANT CREATE ON SCHEMA public TO facedown_owner';
        EXECUTE 'SET LOCAL ROLE facedown_owner';
    END IF;
END $$;
