/**
 * The ledger's housekeeping job, through pg-boss as the workers run it: a job on the queue
 * expires the idempotency keys past their retention and keeps the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { readUntil } from '../test/wait.ts';
import { createJobBoss, type JobBoss } from '../platform/jobs.ts';
import { tablesView, withClient } from '../platform/database.ts';
import { createLedger, IDEMPOTENCY_KEY_RETENTION_DAYS, rupees, type LedgerTables } from '../ledger/index.ts';
import { EXPIRE_IDEMPOTENCY_KEYS_QUEUE, startLedgerMaintenance } from './maintenance.ts';

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let stop: () => Promise<void>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 2 });
  await boss.start();
  stop = await startLedgerMaintenance(testDb.db, boss, { schedule: false });
});

afterAll(async () => {
  await stop();
  await boss.stop({ graceful: false });
  await testDb.drop();
});

const keys = async () =>
  (await sql<{ key: string }>`select key from ledger.idempotency_keys order by key`.execute(testDb.db)).rows.map(
    (row) => row.key,
  );

describe('the idempotency key expiry job', () => {
  it('deletes the keys past their retention when its job runs, and only those', async () => {
    const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
    await ledger.openWallet({ accountId: 'asha', displayName: 'Asha' }, { actorId: 'asha' });
    await ledger.completeCardDeposit(
      {
        depositId: 'c0',
        walletId: 'asha',
        amountPaise: rupees(5),
        reference: 'x',
        provider: 'sandbox',
        paymentId: 'p0',
      },
      { actorId: 'provider:card', idempotencyKey: 'old' },
    );
    await ledger.completeCardDeposit(
      {
        depositId: 'c1',
        walletId: 'asha',
        amountPaise: rupees(5),
        reference: 'x',
        provider: 'sandbox',
        paymentId: 'p',
      },
      { actorId: 'provider:card', idempotencyKey: 'top-up' },
    );
    await withClient(testDb.ownerUrl, (client) =>
      client.query(
        `update ledger.idempotency_keys set recorded_at = now() - make_interval(days => $1) where key = 'old'`,
        [IDEMPOTENCY_KEY_RETENTION_DAYS + 2],
      ),
    );
    expect(await keys()).toEqual(['old', 'top-up']);
    await boss.send(EXPIRE_IDEMPOTENCY_KEYS_QUEUE, {});
    await readUntil('the expiry job to delete the old key', keys, (left) => !left.includes('old'), {
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    expect(await keys()).toEqual(['top-up']);
  });
});
