-- 0010 (PostgreSQL): buckets moved away from this database (issue 43, item 4). Forward only:
-- never edit once shipped.
-- (0010, not 0009: issue 43's item 3, built beside this one, adds 0009_shard_outbox.)
--
-- `recents shards move` writes a row here, on the database the bucket leaves, in the same fence
-- that copies its last changes to the new shard. From then on every write this database's
-- writers are asked to make to a list of the bucket is refused (503, `bucket-moving`), whatever
-- placement the instance still follows: an instance that has not yet read the new placement file
-- cannot write into the old copy. A move of the bucket back here deletes the row. Only sharded
-- deployments (`--placement`) read it; one database never does.
CREATE TABLE moved_buckets (
    bucket integer PRIMARY KEY CHECK (bucket >= 0),
    to_shard text NOT NULL,
    moved_at bigint NOT NULL -- unix seconds
);
