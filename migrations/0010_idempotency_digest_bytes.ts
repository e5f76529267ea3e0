/**
 * An idempotency record keeps its request's SHA-256 as its 32 bytes rather than as 64 hex
 * characters (issue 40: WAL per transfer). With the result kept without what the events say
 * (ledger.recorded_result, ledger/sql/append-batch.sql), a transfer's record is 150 bytes
 * smaller, in the table and in the WAL. The SQL functions (ledger.append_batch) and the
 * command handlers compare the hex form, as before: the conversion is at the table's edge.
 *
 * The column's change rewrites the table under an exclusive lock; the table holds only the
 * retention period's keys (ledger/idempotency-retention.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table ledger.idempotency_keys
  alter column request_hash type bytea using decode(request_hash, 'hex'),
  add constraint idempotency_keys_request_hash_check check (octet_length(request_hash) = 32);
`.execute(db);
}
