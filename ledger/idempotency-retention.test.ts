/**
 * Idempotency keys are kept for IDEMPOTENCY_KEY_RETENTION_DAYS and then expired: a retry
 * within the retention gets the first result; past it the key is gone (and, free again,
 * makes a new command); a retention under a day is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { withClient } from '../platform/database.ts';
import {
  createLedger,
  expireIdempotencyKeys,
  IDEMPOTENCY_KEY_RETENTION_DAYS,
  rupees,
  type Ledger,
  type LedgerTables,
} from './index.ts';

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

const send = (key: string, transferId: string) =>
  ledger.transfer(
    { transferId, fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(1), reference: 'rent' },
    { actorId: 'alice', idempotencyKey: key },
  );

/** Only the owner may rewrite the ledger's rows: age a key as if it was made `days` ago. */
async function age(key: string, days: number): Promise<void> {
  await withClient(testDb.ownerUrl, (client) =>
    client.query(`update ledger.idempotency_keys set recorded_at = now() - make_interval(days => $1) where key = $2`, [
      days,
      key,
    ]),
  );
}

const keys = async () =>
  (await sql<{ key: string }>`select key from ledger.idempotency_keys order by key`.execute(testDb.db)).rows.map(
    (row) => row.key,
  );

describe('idempotency keys past their retention', () => {
  it('are expired in batches; keys within the retention stay and still answer retries', async () => {
    for (let n = 0; n < 5; n++) await send(`old-${n}`, `t-old-${n}`);
    await send('fresh', 't-fresh');
    await send('almost', 't-almost');
    for (let n = 0; n < 5; n++) await age(`old-${n}`, IDEMPOTENCY_KEY_RETENTION_DAYS + 1);
    await age('almost', IDEMPOTENCY_KEY_RETENTION_DAYS - 1);

    expect(await expireIdempotencyKeys(testDb.db, IDEMPOTENCY_KEY_RETENTION_DAYS, 2)).toBe(5);
    expect(await keys()).toEqual(['almost', 'fresh']);
    expect((await send('almost', 't-other')).replayed).toBe(true);
    // Past the retention the key is free: the same key makes a new transfer.
    const again = await send('old-0', 't-old-0-again');
    expect(again.replayed ?? false).toBe(false);
    expect(await expireIdempotencyKeys(testDb.db)).toBe(0);
  });

  it('refuses a retention under a day, and deletes nothing then', async () => {
    const before = await keys();
    await expect(sql`select ledger.expire_idempotency_keys(interval '1 hour', 100)`.execute(testDb.db)).rejects.toThrow(
      /at least a day/,
    );
    await expect(expireIdempotencyKeys(testDb.db, 0.5)).rejects.toThrow(/at least a day/);
    expect(await keys()).toEqual(before);
  });
});
