/**
 * The admin explorer's type index on the log (`ledger.events_by_type`, on `(type, position)`)
 * leaves out TransferCompleted, the event of every payment (issue 40: WAL per transfer). Every
 * transfer paid one B-tree entry in it and one WAL record for that entry (about 140 bytes of a
 * transfer's ~2,000). The explorer pages a type's events in position order: for transfers, the
 * most frequent event, the primary key's scan finds a page within a few rows of each other; for
 * every other type - deposits, requests, reversals, disputes, some of them rare - the index
 * still serves it, as it serves the account's deposit and request streams (audit/explorer.ts).
 *
 * The new index is built before the old one goes, in the migration's transaction: appends wait
 * for the build (seconds on a ledger of millions of events).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
create index events_by_type_but_transfers on ledger.events (type, position) where type <> 'TransferCompleted';
drop index ledger.events_by_type;
alter index ledger.events_by_type_but_transfers rename to events_by_type;
`.execute(db);
}
