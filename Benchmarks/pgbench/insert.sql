-- pgbench script for the anchor of `Benchmarks/run --postgres`: one transaction = one call row
-- into one of 64 lists (as wrk/post.lua spreads Recents' writes), committed on its own with the
-- cluster's synchronous_commit=on. Ids are unique per client and transaction.
\set list random(1, 64)
\set ts random(1764460800, 1764547200)
INSERT INTO bench_calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
    "timestamp", missed, created_version)
VALUES (:list, :client_id || '-' || gen_random_uuid(), 'p' || (:ts % 50), '', 'incoming', 'hangup', false, 0,
    :ts, false, 1);
