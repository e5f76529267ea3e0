/**
 * `ledger balance ACCOUNT` and `ledger events`: what the log says, for an operator.
 */
import { sql, type Kysely } from 'kysely';
import { formatRupees } from './verify.ts';

export interface BalanceReport {
  accountId: string;
  kind: string | undefined;
  headPaise: bigint | null;
  postingsPaise: bigint;
  postings: bigint;
  projectedPaise: bigint | null;
}

export async function accountBalance(db: Kysely<unknown>, accountId: string): Promise<BalanceReport> {
  const { rows } = await sql<{ kind: string | null; head: bigint | null; sum: string; count: bigint; projected: bigint | null }>`
    select (select kind from ledger.accounts where id = ${accountId}) as kind,
           (select balance from ledger.accounts where id = ${accountId}) as head,
           (select coalesce(sum(amount), 0)::text from ledger.postings where account_id = ${accountId}) as sum,
           (select count(*) from ledger.postings where account_id = ${accountId}) as count,
           (select balance_paise from read.balances where account_id = ${accountId}) as projected`.execute(db);
  const row = rows[0];
  return {
    accountId,
    kind: row?.kind ?? undefined,
    headPaise: row?.head ?? null,
    postingsPaise: BigInt(row?.sum ?? '0'),
    postings: row?.count ?? 0n,
    projectedPaise: row?.projected ?? null,
  };
}

export function formatBalance(report: BalanceReport): string {
  if (!report.kind) return `No account ${report.accountId}.`;
  return [
    `${report.accountId} (${report.kind})`,
    `  from postings:     ${formatRupees(report.postingsPaise)} (${report.postingsPaise} paise, ${report.postings} postings)`,
    `  account head:      ${report.headPaise === null ? '- (funding accounts have no head)' : `${formatRupees(report.headPaise)} (${report.headPaise} paise)`}`,
    `  balance projection: ${report.projectedPaise === null ? '- (not projected yet)' : `${formatRupees(report.projectedPaise)} (${report.projectedPaise} paise)`}`,
  ].join('\n');
}

export interface EventFilters {
  stream?: string | undefined;
  account?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  limit: number;
}

export interface EventLine {
  position: bigint;
  txId: string;
  streamId: string;
  type: string;
  recordedAt: Date;
  data: unknown;
  postings: string;
}

const ACCOUNT_FIELDS = ['accountId', 'walletId', 'fromAccountId', 'toAccountId', 'requesterId', 'payerId'];

export async function listEvents(db: Kysely<unknown>, filters: EventFilters): Promise<EventLine[]> {
  const conditions = [sql`true`];
  if (filters.stream) conditions.push(sql`e.stream_id = ${filters.stream}`);
  if (filters.since) conditions.push(sql`e.recorded_at >= ${filters.since}`);
  if (filters.until) conditions.push(sql`e.recorded_at < ${filters.until}`);
  if (filters.account) {
    const account = filters.account;
    const inData = ACCOUNT_FIELDS.map((field) => sql`e.data->>${field} = ${account}`);
    conditions.push(sql`(exists (select 1 from ledger.postings p where p.position = e.position and p.account_id = ${account}) or ${sql.join(inData, sql` or `)})`);
  }
  const { rows } = await sql<{ position: bigint; tx_id: string; stream_id: string; type: string; recorded_at: Date; data: unknown; postings: string | null }>`
    select e.position, e.tx_id::text as tx_id, e.stream_id, e.type, e.recorded_at, e.data,
           (select string_agg(p.account_id || ' ' || p.amount, ', ' order by p.account_id) from ledger.postings p where p.position = e.position) as postings
      from ledger.events e
     where ${sql.join(conditions, sql` and `)}
     order by e.position
     limit ${filters.limit}`.execute(db);
  return rows.map((row) => ({ position: row.position, txId: row.tx_id, streamId: row.stream_id, type: row.type, recordedAt: row.recorded_at, data: row.data, postings: row.postings ?? '' }));
}

export function formatEvents(events: EventLine[]): string {
  if (events.length === 0) return 'No events match.';
  return events
    .map((event) => `${String(event.position).padStart(8)}  tx ${event.txId.padEnd(10)} ${event.recordedAt.toISOString()}  ${event.streamId}  ${event.type}  ${JSON.stringify(event.data)}${event.postings ? `  [${event.postings}]` : ''}`)
    .join('\n');
}
