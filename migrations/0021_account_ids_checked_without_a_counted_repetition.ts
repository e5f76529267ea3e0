/**
 * A wallet head's id check without a counted repetition (issue 40: the ledger's cost).
 *
 * `accounts_id_check` was `id ~ '^[A-Za-z0-9_:-]{1,80}$'`. A CHECK constraint is evaluated on
 * every UPDATE of its row, whatever the columns changed, and every batch updates the heads of
 * the wallets it moves (ledger.append_batch). PostgreSQL's regular expression engine expands a
 * counted repetition into states of its own: 200,000 such ids took 1.83 s to test against
 * 0.21 s for the same class repeated with `+` and the length compared apart - about 9 us a
 * head, two heads a transfer (bench/RESULTS.md, "2026-12-01 05:42"). The accepted ids are the
 * same: one to eighty characters of the class.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
alter table ledger.accounts
  drop constraint accounts_id_check,
  add constraint accounts_id_check check (id ~ '^[A-Za-z0-9_:-]+$' and length(id) <= 80);
`.execute(db);
}
