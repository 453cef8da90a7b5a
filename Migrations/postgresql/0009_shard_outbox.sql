-- 0009 (PostgreSQL): "Delete for everyone" across shards (issue 43, item 3). Forward only: never
-- edit once shipped. Both tables stay empty on a database that is not a shard of several.
--
-- shard_outbox: on the caller's shard, one row per peer list a delete or clear for everyone
-- reached on another shard, inserted in the caller's own transaction, so the caller's change and
-- the promise to change the peer commit together or not at all. Every instance drains it in id
-- order (`OutboxDrainer`) and deletes a row once its apply committed on the peer's shard.
-- call_ids: the caller's call ids the peer may hold copies of (the peer deletes those that name
-- the caller as their peer). token: the entry's identity across shards.
CREATE TABLE shard_outbox (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token uuid NOT NULL DEFAULT gen_random_uuid(),
    caller text NOT NULL,
    peer text NOT NULL,
    call_ids text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- shard_outbox_applied: on the peer's shard, the tokens of the entries applied there, each
-- inserted in its apply's own transaction. An entry drained twice (two instances at once, or a
-- crash between the apply and the row's deletion on the caller's shard) finds its token and
-- applies nothing. Tokens older than 7 days go (the drain deletes the row seconds after the apply).
-- list: the peer list the entry changed, so that `recents shards move` takes a list's tokens
-- with it (a replay after the list's bucket moved finds its token on the new shard).
CREATE TABLE shard_outbox_applied (
    token uuid PRIMARY KEY,
    list text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shard_outbox_applied_at ON shard_outbox_applied (applied_at);
CREATE INDEX shard_outbox_applied_list ON shard_outbox_applied (list);
