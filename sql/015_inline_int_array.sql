-- fd_int_array (013) as a function PostgreSQL inlines into the statement that calls it.
-- 013's form (a subquery, and a SET search_path clause) could not be inlined: every command's
-- game-index UPDATE planned its body anew four times, 0.2-0.3 ms of the database's time per
-- command (measured; docs/performance.md, fifth round). Without a subquery or a SET clause,
-- and STABLE (the text-to-array cast is), the planner replaces each call by its expression.
-- Only built-in functions are named, qualified with pg_catalog, so the caller's search_path
-- does not matter. Same results: a JSON array of integers as int[], NULL for anything else
-- (JSON null).
CREATE OR REPLACE FUNCTION fd_int_array(p jsonb) RETURNS int[]
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN pg_catalog.jsonb_typeof(p) = 'array'
                THEN pg_catalog.translate(p::text, '[]', '{}')::int[] END
$$;
