/**
 * Projection "statement_days" on events recorded across many Asia/Kolkata days, out of day order
 * (a later-read event on an earlier day), with reversals: projected incrementally in batches
 * of random size that split days and streams, the rows equal a replay (its set-based load, in
 * one part and in three), and
 * both equal the figures computed another way (window sums over the ledger's postings); the
 * last day's closing balance is the wallet's balance. Then the queries the API reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { generateAppends, seededRandom } from '../../test/random-ledger.ts';
import { allowBackdatedEvents, appendRecordedAt } from '../../test/backdated-events.ts';
import { allCaughtUp, drainUntil } from '../../test/read-model.ts';
import { verifyLedger } from '../../audit/index.ts';
import {
  dailyClosingBalances,
  drainAll,
  drainProjection,
  monthlyTotals,
  periodSummary,
  readStatementDays,
  replayProjection,
  readViews,
} from '../index.ts';

const WALLETS = ['w0', 'w1', 'w2', 'w3'];
/** Midnight in Kolkata is 18:30 UTC the day before: times on both sides of it. */
const TIMES = [
  '2025-01-30T18:29:59.999Z', // 30 Jan, 23:59:59.999 IST
  '2025-01-30T18:30:00.000Z', // 31 Jan, 00:00 IST
  '2025-01-31T10:00:00.000Z',
  '2025-02-01T03:00:00.000Z',
  '2025-02-14T20:00:00.000Z',
  '2025-03-01T18:29:00.000Z',
];

let testDb: TestDatabase<unknown>;
let ledger: Ledger;
let client: pg.Client;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  await allowBackdatedEvents(testDb.ownerUrl);
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  for (const wallet of WALLETS)
    await ledger.openWallet({ accountId: wallet, displayName: wallet }, { actorId: wallet });
  client = new pg.Client(testDb.url);
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await testDb.drop();
});

async function dumpStatementDays(): Promise<string[]> {
  const { rows } = await sql<{ row: string }>`
    select to_jsonb(t)::text as row from read.statement_days t order by account_id, day`.execute(testDb.db);
  return rows.map((row) => row.row);
}

/** The same figures, computed from the postings with a window sum (no incremental rule involved). */
async function expectedStatementDays(): Promise<string[]> {
  const { rows } = await sql<{ row: string }>`
    with days as (
      select p.account_id, (e.recorded_at at time zone 'Asia/Kolkata')::date as day,
             coalesce(sum(p.amount) filter (where p.amount > 0), 0) as money_in_paise,
             coalesce(-sum(p.amount) filter (where p.amount < 0), 0) as money_out_paise,
             sum(p.amount) as net, count(*) as postings_count
        from ledger.postings p join ledger.events e on e.position = p.position
       where p.account_seq is not null
       group by 1, 2
    )
    select jsonb_build_object('account_id', account_id, 'day', day, 'money_in_paise', money_in_paise,
             'money_out_paise', money_out_paise,
             'closing_balance_paise', sum(net) over (partition by account_id order by day),
             'postings_count', postings_count)::text as row
      from days order by account_id, day`.execute(testDb.db);
  return rows.map((row) => row.row);
}

describe('given random activity over several Kolkata days, out of day order, with reversals', () => {
  it('incremental batches that split days and streams equal a replay and the postings', async () => {
    const random = seededRandom(42);
    const appends = generateAppends('s', WALLETS, 600, random);
    let index = 0;
    for (const append of appends) {
      // Mostly forward in time, sometimes back to an earlier day (a late commit).
      const time = TIMES[Math.min(TIMES.length - 1, Math.floor((index / appends.length) * TIMES.length))] as string;
      const recordedAt = random() < 0.15 ? (TIMES[Math.floor(random() * TIMES.length)] as string) : time;
      await appendRecordedAt(client, new Date(recordedAt), append.streamId, append.expectedVersion, append.events);
      index += 1;
      if (index % 37 === 0)
        await drainProjection(testDb.db, 'statement_days', { batchSize: 1 + Math.floor(random() * 40) });
    }
    // Reversals (recorded today): every event type that moves a wallet counts.
    const { rows: transfers } = await sql<{ id: string }>`
      select data->>'transferId' as id from ledger.events where type = 'TransferCompleted' order by position limit 3`.execute(
      testDb.db,
    );
    let reversed = 0;
    for (const transfer of transfers) {
      try {
        await ledger.reverseTransaction(
          { kind: 'transfer', transactionId: transfer.id, reason: 'sent by mistake' },
          { actorId: 'admin' },
        );
        reversed += 1;
      } catch {
        // The receiver may have spent it since (insufficient funds): another one is reversed.
      }
    }
    expect(reversed).toBeGreaterThan(0);
    await drainProjection(testDb.db, 'statement_days', { batchSize: 3 });
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));

    const incremental = await dumpStatementDays();
    const expected = await expectedStatementDays();
    expect(incremental).toEqual(expected);
    expect(new Set(incremental.map((row) => (JSON.parse(row) as { day: string }).day)).size).toBeGreaterThanOrEqual(6);

    // The set-based load (projector.bulk_replay_statement_days) in one part and in three, then
    // the tail in chunks of 7.
    for (const parallelism of [1, 3]) {
      await replayProjection(testDb.db, 'statement_days', { batchSize: 7, parallelism });
      expect(await dumpStatementDays()).toEqual(incremental);
    }

    const { rows: heads } = await sql<{ id: string; balance: string; closing: string }>`
      select a.id, a.balance::text, (select closing_balance_paise::text from read.statement_days s
                                      where s.account_id = a.id order by day desc limit 1) as closing
        from ledger.accounts a where a.kind = 'wallet'`.execute(testDb.db);
    for (const head of heads) expect(head.closing ?? '0', head.id).toBe(head.balance);

    // `ledger verify` checks the days against the postings, and names a wallet whose days are off.
    expect((await verifyLedger(testDb.db)).differences).toEqual([]);
    await sql`update read.statement_days set closing_balance_paise = closing_balance_paise + 1
               where account_id = 'w1' and day = (select max(day) from read.statement_days where account_id = 'w1')`.execute(
      testDb.db,
    );
    const differences = (await verifyLedger(testDb.db)).differences;
    expect(
      differences.some((line) => line.startsWith('daily statements differ from postings: w1: read.statement_days')),
    ).toBe(true);
    await sql`update read.statement_days set closing_balance_paise = closing_balance_paise - 1
               where account_id = 'w1' and day = (select max(day) from read.statement_days where account_id = 'w1')`.execute(
      testDb.db,
    );
  });
});

describe('the queries', () => {
  it('reads a period with its opening balance, every day carried forward, months and totals', async () => {
    await ledger.openWallet({ accountId: 'q', displayName: 'Q' }, { actorId: 'q' });
    const deposit = (id: string, paise: bigint) => [
      {
        type: 'DepositSettled',
        data: { depositId: id, walletId: 'q', amountPaise: paise.toString(), method: 'upi', confirmedBy: 'admin' },
        postings: [
          { account: 'funding:upi', amount: (-paise).toString() },
          { account: 'q', amount: paise.toString() },
        ],
      },
    ];
    const pay = (id: string, paise: bigint) => [
      {
        type: 'TransferCompleted',
        data: { transferId: id, fromAccountId: 'q', toAccountId: 'w0', amountPaise: paise.toString(), reference: id },
        postings: [
          { account: 'q', amount: (-paise).toString() },
          { account: 'w0', amount: paise.toString() },
        ],
      },
    ];
    await appendRecordedAt(client, new Date('2025-05-30T06:00:00Z'), 'deposit-q1', -1, deposit('q1', rupees(1000)));
    await appendRecordedAt(client, new Date('2025-06-02T06:00:00Z'), 'transfer-q2', -1, pay('q2', rupees(150)));
    await appendRecordedAt(client, new Date('2025-06-02T18:31:00Z'), 'deposit-q3', -1, deposit('q3', rupees(20)));
    await appendRecordedAt(client, new Date('2025-07-01T01:00:00Z'), 'transfer-q4', -1, pay('q4', rupees(70)));
    await drainAll(testDb.db);
    await drainUntil(testDb.db, () => allCaughtUp(testDb.db));

    const read = readViews(testDb.db);
    const period = { accountId: 'q', from: '2025-06-01', to: '2025-07-01' };
    const days = await readStatementDays(read, period);
    expect(days.openingBalancePaise).toBe(rupees(1000));
    // 18:31 UTC on 2 June is 00:01 on 3 June in Kolkata.
    expect(days.days.map((day) => [day.day, day.moneyInPaise, day.moneyOutPaise, day.closingBalancePaise])).toEqual([
      ['2025-06-02', 0n, rupees(150), rupees(850)],
      ['2025-06-03', rupees(20), 0n, rupees(870)],
      ['2025-07-01', 0n, rupees(70), rupees(800)],
    ]);
    const daily = dailyClosingBalances(period, days);
    expect(daily).toHaveLength(31);
    expect(daily.slice(0, 3).map((day) => day.closingBalancePaise)).toEqual([rupees(1000), rupees(850), rupees(870)]);
    expect(daily.at(-2)).toEqual({ day: '2025-06-30', closingBalancePaise: rupees(870) });
    expect(monthlyTotals(period, days)).toEqual([
      { month: '2025-06', moneyInPaise: rupees(20), moneyOutPaise: rupees(150) },
      { month: '2025-07', moneyInPaise: 0n, moneyOutPaise: rupees(70) },
    ]);
    expect(periodSummary(days)).toEqual({
      openingBalancePaise: rupees(1000),
      moneyInPaise: rupees(20),
      moneyOutPaise: rupees(220),
      closingBalancePaise: rupees(800),
      postingsCount: 3n,
    });
    // Another wallet's days never appear.
    expect((await readStatementDays(read, { ...period, accountId: 'nobody' })).days).toEqual([]);
  });
});
