-- 0003 (PostgreSQL): calls no longer carry a foreign key to lists. Forward only: never edit once
-- shipped.
--
-- Why: the key's check is a trigger that runs a query per inserted call (the row lock
-- `FOR KEY SHARE` on its list), about a tenth of the database's CPU under a load of one-call
-- writes, and it guards nothing the store can break: a call is only ever inserted by the
-- transaction that holds its list's row `FOR UPDATE` (or created it), and a `lists` row is never
-- deleted (a forget keeps the row and deletes the calls itself).
ALTER TABLE calls DROP CONSTRAINT calls_list_id_fkey;
