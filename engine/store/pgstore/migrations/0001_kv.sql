-- The store's key-value space (engine/store): nested buckets of byte keys.
-- One row per bucket, with its sequence (Bucket.NextSequence); one row per
-- key of a bucket, holding a value or naming a nested bucket (child), so
-- that a bucket's keys and nested buckets share one namespace and one
-- order (bytea compares byte by byte, as bbolt does).

CREATE SEQUENCE orrery_bucket_id;

CREATE TABLE orrery_bucket (
	id     bigint PRIMARY KEY,
	-- deleting a bucket deletes its nested buckets, and with them
	-- (orrery_kv.bucket) all their keys
	parent bigint REFERENCES orrery_bucket (id) ON DELETE CASCADE,
	seq    bigint NOT NULL DEFAULT 0
);
CREATE INDEX orrery_bucket_parent ON orrery_bucket (parent);

-- Bucket 0 is the root: its keys are the top-level buckets.
INSERT INTO orrery_bucket (id, parent) VALUES (0, NULL);

CREATE TABLE orrery_kv (
	bucket bigint NOT NULL REFERENCES orrery_bucket (id) ON DELETE CASCADE,
	key    bytea  NOT NULL,
	value  bytea,
	child  bigint REFERENCES orrery_bucket (id) ON DELETE CASCADE,
	PRIMARY KEY (bucket, key),
	CHECK ((value IS NULL) <> (child IS NULL))
);
CREATE INDEX orrery_kv_child ON orrery_kv (child) WHERE child IS NOT NULL;
