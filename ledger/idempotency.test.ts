/**
 * A client that did not see the answer retries with the same Idempotency-Key: it gets the
 * first result, and the ledger appends nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from './index.ts';

let testDb: TestDatabase<LedgerTables>;
let ledger: Ledger;

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>();
  ledger = createLedger({ db: testDb.db });
  for (const id of ['alice', 'bob']) await ledger.openWallet({ accountId: id, displayName: id }, { actorId: id });
  await ledger.completeCardDeposit(
    {
      depositId: 'seed',
      walletId: 'alice',
      amountPaise: rupees(1_000),
      reference: 'seed',
      provider: 'sandbox',
      paymentId: 'p1',
    },
    { actorId: 'provider:card' },
  );
});

afterAll(async () => {
  await testDb.drop();
});

const eventCount = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from ledger.events`.execute(testDb.db)).rows[0]?.n;

describe('a retried transfer with the same idempotency key', () => {
  it('returns the first result and appends nothing', async () => {
    const ctx = { actorId: 'alice', idempotencyKey: 'k-1' };
    const first = await ledger.transfer(
      { transferId: 'first', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(10), reference: 'rent' },
      ctx,
    );
    const before = await eventCount();
    // The retry carries a new server-made id, as a new HTTP request would: the key still wins.
    const again = await ledger.transfer(
      { transferId: 'second', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(10), reference: 'rent' },
      ctx,
    );
    expect(again).toEqual({ ...first, replayed: true });
    expect(again.transferId).toBe('first');
    expect(await eventCount()).toBe(before);
  });

  it('is refused when the same key comes with a different request', async () => {
    const ctx = { actorId: 'alice', idempotencyKey: 'k-1' };
    await expect(
      ledger.transfer(
        { transferId: 'third', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(11), reference: 'rent' },
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('belongs to its actor: another user may use the same key text', async () => {
    await ledger.completeCardDeposit(
      {
        depositId: 'seed-bob',
        walletId: 'bob',
        amountPaise: rupees(5),
        reference: 'seed',
        provider: 'sandbox',
        paymentId: 'p2',
      },
      { actorId: 'provider:card' },
    );
    const result = await ledger.transfer(
      { transferId: 'bob-1', fromAccountId: 'bob', toAccountId: 'alice', amountPaise: rupees(1), reference: 'back' },
      { actorId: 'bob', idempotencyKey: 'k-1' },
    );
    expect(result.replayed).toBe(false);
  });

  it('keeps two actors apart whose id and key make the same text together', async () => {
    const transfer = (transferId: string, actorId: string, idempotencyKey: string) =>
      ledger.transfer(
        { transferId, fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(1), reference: 'split' },
        { actorId, idempotencyKey },
      );
    const first = await transfer('split-1', 'al', 'ice-k');
    const second = await transfer('split-2', 'ali', 'ce-k');
    expect([first.replayed, second.replayed]).toEqual([false, false]);
    expect((await transfer('split-1', 'al', 'ice-k')).transferId).toBe('split-1');
    expect((await transfer('split-2', 'ali', 'ce-k')).transferId).toBe('split-2');
  });

  it('applies once when eight copies race', async () => {
    const ctx = { actorId: 'alice', idempotencyKey: 'k-race' };
    const before = await eventCount();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ledger.transfer(
          {
            transferId: `race-${i}`,
            fromAccountId: 'alice',
            toAccountId: 'bob',
            amountPaise: rupees(3),
            reference: 'race',
          },
          ctx,
        ),
      ),
    );
    expect(new Set(results.map((r) => r.transferId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await eventCount()).toBe((before ?? 0) + 1);
  });

  it('does not store a refused command: the retry is decided again', async () => {
    const ctx = { actorId: 'bob', idempotencyKey: 'k-poor' };
    const input = {
      transferId: 'poor',
      fromAccountId: 'bob',
      toAccountId: 'alice',
      amountPaise: rupees(10_000),
      reference: 'too much',
    };
    await expect(ledger.transfer(input, ctx)).rejects.toMatchObject({ code: 'insufficient_funds' });
    await expect(ledger.transfer(input, ctx)).rejects.toMatchObject({ code: 'insufficient_funds' });
  });
});

describe('a retried acceptance of a money request', () => {
  it('returns the first result instead of "already processed"', async () => {
    await ledger.requestMoney(
      { requestId: 'r1', requesterId: 'bob', payerId: 'alice', amountPaise: rupees(2), reference: 'tea' },
      { actorId: 'bob' },
    );
    const ctx = { actorId: 'alice', idempotencyKey: 'accept-r1' };
    const first = await ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'alice' }, ctx);
    const before = await eventCount();
    const again = await ledger.acceptMoneyRequest({ requestId: 'r1', payerId: 'alice' }, ctx);
    expect(again).toEqual({ ...first, replayed: true });
    expect(await eventCount()).toBe(before);
  });

  it('moves the money once when two acceptances race without keys', async () => {
    await ledger.requestMoney(
      { requestId: 'r2', requesterId: 'bob', payerId: 'alice', amountPaise: rupees(4), reference: 'snacks' },
      { actorId: 'bob' },
    );
    const outcomes = await Promise.allSettled([
      ledger.acceptMoneyRequest({ requestId: 'r2', payerId: 'alice' }, { actorId: 'alice' }),
      ledger.acceptMoneyRequest({ requestId: 'r2', payerId: 'alice' }, { actorId: 'alice' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failure = outcomes.find((o) => o.status === 'rejected');
    expect(failure?.status === 'rejected' && failure.reason).toMatchObject({ code: 'request_not_pending' });
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from ledger.events where stream_id = 'request-r2' and type = 'MoneyRequestAccepted'`.execute(
      testDb.db,
    );
    expect(rows[0]?.n).toBe(1);
  });
});

describe("an idempotency record (issue 40: a transfer's WAL)", () => {
  it('keeps only what the events do not say, and its replay answers the whole first result', async () => {
    const ctx = { actorId: 'alice', idempotencyKey: 'k-lean' };
    const first = await ledger.transfer(
      { transferId: 'lean', fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(3), reference: 'tea' },
      ctx,
    );
    const { rows } = await sql<{ result: unknown; bytes: number }>`
      select result, octet_length(request_hash) as bytes from ledger.idempotency_keys
       where actor_id = 'alice' and key = 'k-lean'`.execute(testDb.db);
    expect(rows[0]).toEqual({ result: { positions: first.positions }, bytes: 32 });
    expect(first).toMatchObject({ streamId: 'transfer-lean', streamVersion: 0, replayed: false });
    expect(await ledger.transfer({ ...inputOf('lean-2'), amountPaise: rupees(3), reference: 'tea' }, ctx)).toEqual({
      ...first,
      replayed: true,
    });
  });

  it('kept whole, as before migration 0010, still answers as it was kept', async () => {
    const kept = {
      transferId: 'old',
      streamId: 'transfer-old',
      streamVersion: 0,
      positions: [1],
      checkpoint: '7.1',
      replayed: false,
    };
    // Written as the owner: the runtime may not write the ledger's tables.
    const owner = new pg.Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    try {
      await owner.query(
        `insert into ledger.idempotency_keys (actor_id, key, command, request_hash, result)
         select 'alice', 'k-old', command, request_hash, $1::jsonb
           from ledger.idempotency_keys where actor_id = 'alice' and key = 'k-lean'`,
        [JSON.stringify(kept)],
      );
    } finally {
      await owner.end();
    }
    const again = await ledger.transfer(
      { ...inputOf('old-2'), amountPaise: rupees(3), reference: 'tea' },
      { actorId: 'alice', idempotencyKey: 'k-old' },
    );
    expect(again).toEqual({ ...kept, replayed: true });
  });
});

function inputOf(transferId: string) {
  return { transferId, fromAccountId: 'alice', toAccountId: 'bob' };
}
