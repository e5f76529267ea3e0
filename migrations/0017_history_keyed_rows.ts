/**
 * History's search index holds only the rows of accounts with more than
 * `read.history_keys_after_rows()` (2,000) rows (issue 40: the read side's cost).
 *
 * A search reads a user's newest 2,000 rows first and looks keys up only when they hold neither
 * all of the user's rows nor enough matches (projections/history/queries.ts), so the keys of a
 * shorter history were written on every insert and never read: ~40% of the history rule's CPU
 * on B1's ledger, where a wallet has tens of rows. Each row now says whether it is `keyed`; the
 * rule keys an account's rows once its count passes the bound (projections/history/rules.sql),
 * and the GIN index is partial on it, as is the B-tree on the reversed transaction id, which
 * only that way of a search reads (an id's start is also how a transaction's page finds its
 * row, so that index keeps every row). The new column has a constant default, so adding it
 * rewrites nothing; the rows of accounts already past the bound are keyed here, then the index
 * is rebuilt over them. A replay copies the live table and its indexes.
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The bound's function first (the definitions are applied after the migrations).
  await sql.raw(readFileSync(new URL('../projections/history/search-keys.sql', import.meta.url), 'utf8')).execute(db);
  await sql`
alter table read.history add column keyed boolean not null default false;
update read.history h set keyed = true
  from (select account_id from read.history_counts
         group by account_id having sum(rows) > read.history_keys_after_rows()) c
 where h.account_id = c.account_id;
drop index read.history_search_keys;
create index history_search_keys on read.history
  using gin (read.history_search_keys(account_id, reference, counterparty_name, amount_paise))
  with (fastupdate = off) where keyed;
alter index read.history_search_keys alter column 1 set statistics 0;
drop index read.history_transaction_tail;
create index history_transaction_tail on read.history (account_id, reverse(lower(transaction_id)) text_pattern_ops)
  where keyed;
`.execute(db);
}
