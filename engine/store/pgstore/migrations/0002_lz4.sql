-- Values longer than about 2 kB are compressed before they are stored
-- out of line (TOAST). PostgreSQL's own method, pglz, took about 1 ms to
-- compress each queued outbox mail (some 33 kB of JSON: its text, HTML
-- and report.json), written when queued and again when claimed: the
-- largest single cost of a backlog's drain on the server. lz4 does the
-- same in about a tenth of the time, to much the same size. Only new
-- values are written with it; the old ones are read as they were. A
-- server without lz4 (before PostgreSQL 14, or built without it) keeps
-- pglz: the statement is run from a string so that an older server's
-- parser refuses it here, where the refusal is caught.
DO $$
BEGIN
	EXECUTE 'ALTER TABLE orrery_kv ALTER COLUMN value SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR syntax_error OR undefined_object THEN
	RAISE NOTICE 'orrery_kv.value keeps the server''s default compression: %', SQLERRM;
END $$;
