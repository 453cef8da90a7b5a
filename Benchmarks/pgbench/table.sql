-- The anchor's table for `Benchmarks/run --postgres`: a copy of the store's `calls` table as the
-- migrations just made it (same columns, identity, checks and indexes; LIKE copies no foreign key),
-- so pgbench's single-row INSERT does the work of one Recents call write minus what Recents adds
-- (the list row's lock and version, the NOTIFY, HTTP), and follows every future migration.
DROP TABLE IF EXISTS bench_calls;
CREATE TABLE bench_calls (LIKE calls INCLUDING ALL);
