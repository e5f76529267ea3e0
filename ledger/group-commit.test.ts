/**
 * Group commit (ledger.append_batch, event-store/batch.ts): a batch of commands with mixed
 * outcomes commits exactly the accepted ones and answers each caller its own result; a hot
 * wallet's head is written once per batch; concurrent batches of several processes on the
 * same hot wallets never overdraw or deadlock; a batch that fails whole (a unique violation
 * against another transaction) falls back to one-by-one appends; a command goes at once
 * when nothing is in flight.
 */
import pg from 'pg';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, eventCount, type TestDatabase } from '../test/database.ts';
import { toWireAppend } from './event-store/append.ts';
import { encodeJson } from './event-store/codec.ts';
import { createLedger, isLedgerRejection, rupees, type Ledger, type LedgerTables } from './index.ts';
import { decideTransfer } from './transfers/transfer.ts';
import { openFundedWallets } from '../test/funded-wallets.ts';
import { waitUntil } from '../test/wait.ts';

let testDb: TestDatabase<LedgerTables>;
let setup: Ledger;
const WALLETS = ['alice', 'bob', 'carol', 'dave', 'erin'];

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>({ maxConnections: 40 });
  setup = createLedger({ db: testDb.db, batching: false });
  await openFundedWallets(setup, WALLETS, rupees(1_000));
});

afterAll(async () => {
  await testDb.drop();
});

async function balance(id: string): Promise<bigint> {
  const row = await testDb.db
    .selectFrom('ledger.accounts')
    .select('balance')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.balance ?? 0n;
}

/** The ledger's own invariant: every wallet head equals the sum of its postings; nothing below zero. */
async function headsMatchPostings(): Promise<void> {
  const { rows } = await sql<{ id: string; balance: bigint; posted: bigint | null; seq: bigint; lines: bigint }>`
    select a.id, a.balance, (select sum(amount) from ledger.postings p where p.account_id = a.id)::bigint as posted,
           a.seq, (select count(*) from ledger.postings p where p.account_id = a.id) as lines
      from ledger.accounts a where a.kind = 'wallet'`.execute(testDb.db);
  for (const row of rows) {
    expect(row.balance, row.id).toBe(row.posted ?? 0n);
    expect(row.seq, row.id).toBe(row.lines);
    expect(row.balance >= 0n, row.id).toBe(true);
  }
}

const transfer = (ledger: Ledger, id: string, from: string, to: string, rupeesAmount: number, key?: string) =>
  ledger.transfer(
    {
      transferId: id,
      fromAccountId: from,
      toAccountId: to,
      amountPaise: rupees(rupeesAmount),
      reference: 'batch test',
    },
    { actorId: from, idempotencyKey: key },
  );

describe('one batch with mixed outcomes', () => {
  it('commits exactly the accepted commands and answers each caller its own result', async () => {
    const sizes: number[] = [];
    const ledger = createLedger({
      db: testDb.db,
      batching: { maxBatchSize: 64, maxInFlight: 1, onBatch: (size) => sizes.push(size) },
    });
    const used = await transfer(setup, 'used-key', 'erin', 'dave', 5, 'erin-key');
    const before = {
      alice: await balance('alice'),
      bob: await balance('bob'),
      carol: await balance('carol'),
      events: await eventCount(testDb.db),
    };

    // The first command goes at once (nothing in flight); the rest wait and go as one batch.
    const first = transfer(ledger, 'b0', 'alice', 'bob', 10);
    const rest = [
      transfer(ledger, 'b1', 'alice', 'bob', 20, 'alice-k1'),
      transfer(ledger, 'b2', 'carol', 'bob', 5_000),
      transfer(ledger, 'b3', 'erin', 'dave', 7, 'erin-key'),
      transfer(ledger, 'b4', 'alice', 'nobody', 1),
      transfer(ledger, 'b5', 'alice', 'bob', 20, 'alice-k1'),
      transfer(ledger, 'b6', 'carol', 'alice', 30),
      transfer(ledger, 'b7', 'erin', 'dave', 5, 'erin-key'),
    ];
    const outcomes = await Promise.allSettled([first, ...rest]);
    expect(sizes).toEqual([1, 7]);
    const codes = outcomes.map((outcome) =>
      outcome.status === 'fulfilled'
        ? outcome.value.replayed
          ? 'replayed'
          : 'ok'
        : isLedgerRejection(outcome.reason)
          ? outcome.reason.code
          : String(outcome.reason),
    );
    expect(codes).toEqual([
      'ok',
      'ok',
      'insufficient_funds',
      'idempotency_key_reused',
      'unknown_account',
      'replayed',
      'ok',
      'replayed',
    ]);
    // The twin of b1 in the same batch answers b1's result; b7 answers the earlier committed one.
    const value = (index: number) =>
      (outcomes[index] as PromiseFulfilledResult<Awaited<ReturnType<typeof transfer>>>).value;
    expect(value(5).transferId).toBe('b1');
    expect(value(5).checkpoint).toBe(value(1).checkpoint);
    expect(value(7)).toEqual({ ...used, replayed: true });

    expect(await eventCount(testDb.db)).toBe(before.events + 3);
    expect(await balance('alice')).toBe(before.alice - rupees(10 + 20 - 30));
    expect(await balance('bob')).toBe(before.bob + rupees(30));
    expect(await balance('carol')).toBe(before.carol - rupees(30));
    const { rows } = await sql<{
      stream_id: string;
    }>`select stream_id from ledger.events order by position desc limit 3`.execute(testDb.db);
    expect(rows.map((row) => row.stream_id).sort()).toEqual(['transfer-b0', 'transfer-b1', 'transfer-b6']);
    await headsMatchPostings();
  });

  it('writes each wallet head once per batch, however many commands moved it', async () => {
    const appends = Array.from({ length: 10 }, (_, index) => {
      const from = WALLETS[index % 3] ?? 'alice';
      const event = decideTransfer({
        transferId: `hot-${index}`,
        fromAccountId: from,
        toAccountId: 'dave',
        amountPaise: rupees(1),
        reference: 'hot wallet',
      });
      return toWireAppend({
        streamId: `transfer-hot-${index}`,
        expectedVersion: -1,
        events: [event],
        metadata: { command: 'transfer', actorId: from },
      });
    });
    // pg_stat_get_xact_tuples_updated counts this backend's row updates of the table not yet
    // reported (earlier transactions' too), so the batch's share is the difference.
    const updatesOf = async (trx: Transaction<LedgerTables>) =>
      (await sql<{ n: bigint }>`select pg_stat_get_xact_tuples_updated('ledger.accounts'::regclass) as n`.execute(trx))
        .rows[0]?.n ?? 0n;
    const updated = await testDb.db.transaction().execute(async (trx) => {
      const before = await updatesOf(trx);
      const { rows } = await sql<{
        outcomes: { ok: boolean }[];
      }>`select ledger.append_batch(${encodeJson(appends)}::jsonb) as outcomes`.execute(trx);
      expect(rows[0]?.outcomes.every((outcome) => outcome.ok)).toBe(true);
      return (await updatesOf(trx)) - before;
    });
    // alice, bob, carol and dave: four heads for twenty postings.
    expect(updated).toBe(4n);
    await headsMatchPostings();
  });
});

describe('concurrent batches from several processes on the same hot wallets', () => {
  it('never overdraw and never deadlock', async () => {
    const processes = Array.from({ length: 3 }, () =>
      createLedger({ db: testDb.db, batching: { maxBatchSize: 32, maxInFlight: 2 } }),
    );
    const total = async () => (await Promise.all(WALLETS.map(balance))).reduce((sum, value) => sum + value, 0n);
    const before = await total();
    const unexpected: unknown[] = [];
    let accepted = 0;
    let refused = 0;
    let next = 0;
    const client = async (index: number) => {
      const ledger = processes[index % processes.length] as Ledger;
      while (next < 1_500) {
        const n = next++;
        // Money goes round among the five wallets, so most transfers pass and some are refused.
        const from = WALLETS[n % 5] ?? 'alice';
        const to = WALLETS[(n + 1 + (n % 4)) % 5] ?? 'erin';
        try {
          await transfer(ledger, `race-${n}`, from, to, 100 + (n % 900));
          accepted++;
        } catch (error) {
          if (isLedgerRejection(error) && error.code === 'insufficient_funds') refused++;
          else unexpected.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: 32 }, (_, index) => client(index)));
    expect(unexpected).toEqual([]);
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(0);
    expect(await total()).toBe(before);
    await headsMatchPostings();
  }, 120_000);
});

describe('a batch that fails whole', () => {
  it('falls back to one-by-one appends: each command gets its own outcome', async () => {
    const sizes: number[] = [];
    const ledger = createLedger({
      db: testDb.db,
      batching: { maxBatchSize: 64, maxInFlight: 1, onBatch: (size) => sizes.push(size) },
    });
    // Another transaction holds the idempotency key the batch will record: the batch waits on
    // it, and fails with a unique violation when that transaction commits.
    const owner = new pg.Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    const twin = await transfer(setup, 'held-first', 'bob', 'carol', 3, 'held-key-source');
    try {
      await owner.query('begin');
      await owner.query(`insert into ledger.idempotency_keys (actor_id, key, command, request_hash, result)
        select 'bob', 'held-key', command, request_hash, result from ledger.idempotency_keys where actor_id = 'bob' and key = 'held-key-source'`);
      const blocker = transfer(ledger, 'lead', 'alice', 'bob', 1);
      const batch = [
        transfer(ledger, 'held', 'bob', 'carol', 3, 'held-key'),
        transfer(ledger, 'bystander-1', 'carol', 'dave', 2),
        transfer(ledger, 'bystander-2', 'dave', 'carol', 2),
      ];
      await blocker;
      await waitUntil(
        'the batch to wait on the held idempotency key',
        async () =>
          (
            await sql<{
              n: number;
            }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%append_batch%'`.execute(
              testDb.db,
            )
          ).rows[0]?.n === 1,
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      await owner.query('commit');
      const outcomes = await Promise.allSettled(batch);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const held = (outcomes[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof transfer>>>).value;
      // The committed key answers: its result is the one stored (made from 'held-first').
      expect(held).toMatchObject({ replayed: true, transferId: twin.transferId });
      expect(sizes).toEqual([1, 3]);
      const { rows } = await sql<{
        stream_id: string;
      }>`select stream_id from ledger.events where stream_id in ('transfer-held', 'transfer-bystander-1', 'transfer-bystander-2') order by stream_id`.execute(
        testDb.db,
      );
      expect(rows.map((row) => row.stream_id)).toEqual(['transfer-bystander-1', 'transfer-bystander-2']);
    } finally {
      await owner.end();
    }
    await headsMatchPostings();
  });
});
