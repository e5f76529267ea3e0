/**
 * Idempotency records are found by a 16-byte digest of their actor and key
 * (ledger.idempotency_digest, ledger/sql/idempotency-digest.sql) instead of by the primary key
 * (actor_id, key) (issue 40: WAL per transfer on a large ledger). A client's key is random text,
 * so a new record lands on a random leaf of a ledger-sized index, and after each checkpoint
 * every leaf is logged whole at its first change: on the 2M-event bench ledger that was 2.1 kB of
 * a transfer's 5.3 kB. A third of the entry's size is a third of the leaves.
 *
 * The table keeps its columns: the lookups compare actor_id and key after the digest. The
 * unique index replaces the primary key (a primary key cannot be on an expression); the runtime
 * only reads the table, and ledger.append_batch is its only writer. The digest's definition is
 * applied first, because the index is built on it; the migration run applies the file again
 * after the migrations, unchanged. Building the index reads the retention period's keys once.
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(readFileSync(new URL('../ledger/sql/idempotency-digest.sql', import.meta.url), 'utf8')).execute(db);
  await sql`
alter table ledger.idempotency_keys drop constraint idempotency_keys_pkey;
create unique index idempotency_keys_by_digest on ledger.idempotency_keys (ledger.idempotency_digest(actor_id, key));
`.execute(db);
}
