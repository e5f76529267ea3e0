/**
 * The ledger under contention: 32 clients, 5,000 random transfers among 20 wallets, 3 of
 * them hot. Nothing may be lost, created, overdrawn or applied twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createLedger, isLedgerRejection, rupees, type Ledger, type LedgerTables } from './index.ts';

const CLIENTS = 32;
const TRANSFERS = 5_000;
const WALLETS = Array.from({ length: 20 }, (_, i) => `w${String(i).padStart(2, '0')}`);
const HOT = WALLETS.slice(0, 3);
const SEED_PAISE = rupees(1_000);

let testDb: TestDatabase<LedgerTables>;
let ledger: Ledger;

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>({ maxConnections: CLIENTS + 2 });
  ledger = createLedger({ db: testDb.db });
  for (const id of WALLETS) {
    await ledger.openWallet({ accountId: id, displayName: id }, { actorId: id });
    await ledger.requestDeposit(
      {
        depositId: `seed-${id}`,
        walletId: id,
        amountPaise: SEED_PAISE,
        method: 'bank_transfer',
        reference: 'seed',
        details: { accountNumber: '12345678', ifscCode: 'SBIN0001234', bankName: 'SBI' },
      },
      { actorId: id },
    );
    await ledger.settleDeposit({ depositId: `seed-${id}` }, { actorId: 'admin' });
  }
});

afterAll(async () => {
  await testDb.drop();
});

// A small deterministic generator: a failing run can be replayed exactly.
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}

function pickAccount(random: () => number): string {
  // Two in three transfers touch a hot wallet.
  const pool = random() < 0.66 ? HOT : WALLETS;
  return pool[Math.floor(random() * pool.length)] ?? 'w00';
}

describe('32 concurrent clients making 5,000 random transfers among 20 wallets (3 hot)', () => {
  const succeeded = new Set<string>();
  const refused = new Map<string, string>();

  it('runs without deadlocks or unexpected errors', async () => {
    const random = generator(20261122);
    const jobs = Array.from({ length: TRANSFERS }, (_, i) => {
      const from = pickAccount(random);
      let to = pickAccount(random);
      if (to === from) to = WALLETS[(WALLETS.indexOf(from) + 1 + Math.floor(random() * 19)) % WALLETS.length] ?? 'w19';
      return {
        transferId: `t${i}`,
        from,
        to,
        amountPaise: BigInt(100 + Math.floor(random() * 30_000)),
        retry: random() < 0.05,
      };
    });
    let next = 0;
    const client = async (): Promise<void> => {
      while (next < jobs.length) {
        const job = jobs[next++];
        if (!job) return;
        const input = {
          transferId: job.transferId,
          fromAccountId: job.from,
          toAccountId: job.to,
          amountPaise: job.amountPaise,
          reference: `load ${job.transferId}`,
        };
        const ctx = { actorId: job.from, idempotencyKey: `key-${job.transferId}` };
        try {
          const first = await ledger.transfer(input, ctx);
          if (job.retry) {
            // A client that lost the response retries with the same key: same result, nothing appended.
            const again = await ledger.transfer(input, ctx);
            expect(again.replayed).toBe(true);
            expect(again.checkpoint).toBe(first.checkpoint);
          }
          succeeded.add(job.transferId);
        } catch (error) {
          if (!isLedgerRejection(error)) throw error;
          refused.set(job.transferId, error.code);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(succeeded.size + refused.size).toBe(TRANSFERS);
    expect(new Set(refused.values())).toEqual(refused.size ? new Set(['insufficient_funds']) : new Set());
    expect(succeeded.size).toBeGreaterThan(TRANSFERS / 2);
  });

  it('never took a wallet below zero', async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ledger.postings p join ledger.accounts a on a.id = p.account_id
      where a.kind = 'wallet' and p.balance_after < 0`.execute(testDb.db);
    expect(rows[0]?.n).toBe(0);
  });

  it('keeps the sum of all postings at zero', async () => {
    const { rows } = await sql<{
      total: bigint;
    }>`select coalesce(sum(amount), 0)::bigint as total from ledger.postings`.execute(testDb.db);
    expect(rows[0]?.total).toBe(0n);
  });

  it('keeps every wallet head equal to the sum and count of its postings', async () => {
    const { rows } = await sql<{
      id: string;
      balance: bigint;
      seq: bigint;
      total: bigint;
      count: bigint;
      last_after: bigint;
    }>`
      select a.id, a.balance, a.seq, coalesce(sum(p.amount), 0)::bigint as total, count(p.*)::bigint as count,
             (select balance_after from ledger.postings where account_id = a.id order by account_seq desc limit 1) as last_after
      from ledger.accounts a left join ledger.postings p on p.account_id = a.id
      where a.kind = 'wallet' group by a.id`.execute(testDb.db);
    expect(rows).toHaveLength(WALLETS.length);
    for (const row of rows) {
      expect(row.balance, row.id).toBe(row.total);
      expect(row.seq, row.id).toBe(row.count);
      expect(row.last_after, row.id).toBe(row.balance);
    }
    const total = rows.reduce((sum, row) => sum + row.balance, 0n);
    expect(total).toBe(SEED_PAISE * BigInt(WALLETS.length));
  });

  it('has every successful transfer in the ledger exactly once, and no refused one', async () => {
    const { rows } = await sql<{ stream_id: string; n: number }>`
      select stream_id, count(*)::int as n from ledger.events where stream_id like 'transfer-%' group by stream_id`.execute(
      testDb.db,
    );
    const recorded = new Map(rows.map((row) => [row.stream_id.slice('transfer-'.length), row.n]));
    expect(recorded.size).toBe(succeeded.size);
    for (const id of succeeded) expect(recorded.get(id), id).toBe(1);
    for (const id of refused.keys()) expect(recorded.has(id), id).toBe(false);
  });
});
