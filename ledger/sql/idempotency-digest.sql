-- ledger.idempotency_digest: the 16 bytes an idempotency record is found by. The records'
-- unique index, idempotency_keys_by_digest, is built on this function rather than on
-- (actor_id, key): a key is the client's random text, so each new record lands on a random
-- leaf, and after every checkpoint each leaf is logged whole at its first change. An entry of
-- 16 bytes instead of the actor's and key's ~60 makes the index a third the size, so a
-- ledger-sized index has a third of the leaves to log again (issue 40: WAL per transfer).
-- The first 16 bytes of SHA-256 cannot collide by accident or by design; the lookups still
-- compare actor_id and key, so a record answers only its own actor's key. The actor's length
-- goes first so that no two (actor, key) pairs make the same text.
--
-- Migration 0013 applies this file before creating the index. Declared immutable: convert_to is
-- only stable because a conversion could be redefined, and this database's encoding and UTF-8's
-- never change. Like every ledger function, it runs as its owner with a pinned search_path
-- (~0.3 us a call more). Changing what it returns changes what the index holds: such a change
-- comes with a versioned migration that rebuilds the index.
create or replace function ledger.idempotency_digest(p_actor text, p_key text) returns uuid
language sql immutable parallel safe security definer set search_path = pg_catalog, pg_temp
return encode(substr(sha256(convert_to(length(p_actor)::text || ':' || p_actor || p_key, 'UTF8')), 1, 16), 'hex')::uuid;
revoke execute on function ledger.idempotency_digest(text, text) from public;
