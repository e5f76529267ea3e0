/**
 * The ledger check behind `npm run ledger -- verify` and the admin's "verify now": recomputes
 * every balance from the postings and compares it with the wallet heads (ledger.accounts
 * balance and seq), the balance projection and the statement lines; checks that all postings, and
 * each event's postings, sum to zero; and returns the differences with the trial balance
 * (cli/verify.ts prints them). Everything is read in one REPEATABLE READ snapshot, and the
 * read tables are compared with the postings of the events their checkpoint covers, so a
 * projection that is merely behind is not reported as wrong.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ProjectionName } from '../projections/index.ts';

export interface TrialBalanceLine {
  kind: string;
  accounts: number;
  balancePaise: bigint;
}

export interface VerifyReport {
  differences: string[];
  trialBalance: TrialBalanceLine[];
  totalPaise: bigint;
}

/** Differences listed per check before the rest are summarised as a count. */
const MAX_LISTED = 20;

type Trx = Transaction<unknown>;

function listed(label: string, lines: string[]): string[] {
  if (lines.length <= MAX_LISTED) return lines.map((line) => `${label}: ${line}`);
  return [
    ...lines.slice(0, MAX_LISTED).map((line) => `${label}: ${line}`),
    `${label}: ... and ${lines.length - MAX_LISTED} more`,
  ];
}

async function checkZeroSums(trx: Trx): Promise<string[]> {
  const events = await sql<{ position: bigint; total: string }>`
    select position, sum(amount)::text as total from ledger.postings group by position having sum(amount) <> 0 order by position`.execute(
    trx,
  );
  const total = await sql<{
    total: string;
  }>`select coalesce(sum(amount), 0)::text as total from ledger.postings`.execute(trx);
  const lines = listed(
    'event postings do not sum to zero',
    events.rows.map((row) => `event ${row.position} sums to ${row.total} paise`),
  );
  if (total.rows[0]?.total !== '0') lines.push(`all postings sum to ${total.rows[0]?.total} paise, not zero`);
  return lines;
}

async function checkHeads(trx: Trx): Promise<string[]> {
  const { rows } = await sql<{
    id: string;
    balance: string;
    seq: string;
    sum: string;
    count: string;
    last_balance: string | null;
  }>`
    select a.id, a.balance::text as balance, a.seq::text as seq,
           coalesce(p.sum, 0)::text as sum, coalesce(p.count, 0)::text as count, last.balance_after::text as last_balance
      from ledger.accounts a
      left join (select account_id, sum(amount) as sum, count(*) as count from ledger.postings group by account_id) p on p.account_id = a.id
      left join lateral (select balance_after from ledger.postings where account_id = a.id order by account_seq desc limit 1) last on true
     where a.kind = 'wallet'
       and (a.balance <> coalesce(p.sum, 0) or a.seq <> coalesce(p.count, 0) or a.balance <> coalesce(last.balance_after, 0))
     order by a.id`.execute(trx);
  return listed(
    'account head differs from postings',
    rows.map(
      (row) =>
        `${row.id}: head balance ${row.balance} seq ${row.seq}, postings sum ${row.sum} count ${row.count}, last balance_after ${row.last_balance ?? 'none'}`,
    ),
  );
}

/** Postings of the events a projection's checkpoint covers, per account. */
function coveredPostings(projection: ProjectionName) {
  return sql`
    select p.account_id, sum(p.amount) as sum, count(*) as count
      from ledger.postings p
      join ledger.events e on e.position = p.position
      join read.checkpoints c on c.projection = ${projection}
     where (e.tx_id, e.position) <= (c.tx_id, c.position)
     group by p.account_id`;
}

async function checkBalanceProjection(trx: Trx): Promise<string[]> {
  const { rows } = await sql<{
    account_id: string;
    projected: string | null;
    projected_count: string | null;
    sum: string | null;
    count: string | null;
  }>`
    with covered as (${coveredPostings('accounts')})
    select coalesce(b.account_id, c.account_id) as account_id, b.balance_paise::text as projected, b.postings_count::text as projected_count,
           c.sum::text as sum, c.count::text as count
      from read.balances b
      full join covered c on c.account_id = b.account_id
     where b.account_id is null
        or (c.account_id is null and (b.balance_paise <> 0 or b.postings_count <> 0))
        or b.balance_paise <> c.sum or b.postings_count <> c.count
     order by 1`.execute(trx);
  return listed(
    'balance projection differs from postings',
    rows.map(
      (row) =>
        `${row.account_id}: read.balances ${row.projected ?? 'missing'} (${row.projected_count ?? 0} postings), postings sum ${row.sum ?? 0} (${row.count ?? 0} postings)`,
    ),
  );
}

async function checkStatements(trx: Trx): Promise<string[]> {
  const { rows } = await sql<{
    account_id: string;
    statement_sum: string | null;
    statement_count: string | null;
    last_balance: string | null;
    sum: string | null;
    count: string | null;
  }>`
    with covered as (${coveredPostings('accounts')}),
    statements as (
      select account_id, sum(amount_paise) as sum, count(*) as count,
             (array_agg(balance_after_paise order by sequence desc))[1] as last_balance
        from read.statement_lines group by account_id
    ),
    everything as (select account_id, count(*) as count from ledger.postings group by account_id)
    select coalesce(s.account_id, c.account_id) as account_id, s.sum::text as statement_sum, s.count::text as statement_count,
           s.last_balance::text as last_balance, c.sum::text as sum, c.count::text as count
      from statements s
      full join covered c on c.account_id = s.account_id
      left join everything a on a.account_id = coalesce(s.account_id, c.account_id)
     -- The last running balance (in sequence order) is the sum only once every posting of the
     -- account is projected: a wallet's sequence is its lock order, not the projection order.
     where s.account_id is null or c.account_id is null or s.sum <> c.sum or s.count <> c.count
        or (s.last_balance <> c.sum and a.count = c.count)
     order by 1`.execute(trx);
  return listed(
    'statement differs from postings',
    rows.map(
      (row) =>
        `${row.account_id}: read.statement_lines sum ${row.statement_sum ?? 'missing'} (${row.statement_count ?? 0} rows, last running balance ${row.last_balance ?? 'none'}), postings sum ${row.sum ?? 0} (${row.count ?? 0})`,
    ),
  );
}

/**
 * Projection "statement_days": per wallet, its days' money in minus money out and postings
 * count equal the postings its checkpoint covers, and so does the last day's closing balance
 * (a sum over all days, whatever order they were projected in).
 */
async function checkStatementDays(trx: Trx): Promise<string[]> {
  const { rows } = await sql<{
    account_id: string;
    net: string | null;
    days_count: string | null;
    closing: string | null;
    sum: string | null;
    count: string | null;
  }>`
    with covered as (${coveredPostings('statement_days')}),
    wallets as (
      select c.* from covered c join ledger.accounts a on a.id = c.account_id where a.kind = 'wallet'
    ),
    days as (
      select account_id, sum(money_in_paise - money_out_paise) as net, sum(postings_count) as count,
             (array_agg(closing_balance_paise order by day desc))[1] as closing
        from read.statement_days group by account_id
    )
    select coalesce(d.account_id, w.account_id) as account_id, d.net::text as net, d.count::text as days_count,
           d.closing::text as closing, w.sum::text as sum, w.count::text as count
      from days d
      full join wallets w on w.account_id = d.account_id
     where d.account_id is null or w.account_id is null or d.net <> w.sum or d.count <> w.count or d.closing <> w.sum
     order by 1`.execute(trx);
  return listed(
    'daily statements differ from postings',
    rows.map(
      (row) =>
        `${row.account_id}: read.statement_days in - out ${row.net ?? 'missing'} (${row.days_count ?? 0} postings, last closing balance ${row.closing ?? 'none'}), postings sum ${row.sum ?? 0} (${row.count ?? 0})`,
    ),
  );
}

/**
 * The sum of postings per account kind (wallets positive, funding accounts negative: zero in
 * total, or the ledger is broken). Shared by verify and the admin's trial balance page.
 */
export async function trialBalanceByKind(db: Kysely<unknown> | Trx): Promise<TrialBalanceLine[]> {
  const { rows } = await sql<{ kind: string; accounts: bigint; balance: string }>`
    select a.kind, count(*) as accounts, coalesce(sum(p.sum), 0)::text as balance
      from ledger.accounts a
      left join (select account_id, sum(amount) as sum from ledger.postings group by account_id) p on p.account_id = a.id
     group by a.kind order by a.kind`.execute(db);
  return rows.map((row) => ({ kind: row.kind, accounts: Number(row.accounts), balancePaise: BigInt(row.balance) }));
}

export function totalOf(lines: readonly TrialBalanceLine[]): bigint {
  return lines.reduce((sum, line) => sum + line.balancePaise, 0n);
}

export async function verifyLedger(db: Kysely<unknown>): Promise<VerifyReport> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const differences = [
        ...(await checkZeroSums(trx)),
        ...(await checkHeads(trx)),
        ...(await checkBalanceProjection(trx)),
        ...(await checkStatements(trx)),
        ...(await checkStatementDays(trx)),
      ];
      const lines = await trialBalanceByKind(trx);
      return { differences, trialBalance: lines, totalPaise: totalOf(lines) };
    });
}
