/**
 * The worker loop end to end: a command through the wired ledger wakes the running workers
 * (a NOTIFY after its commit), and they project it without any manual drain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { createJobBoss, type JobBoss } from '../../platform/jobs.ts';
import { tablesView } from '../../platform/database.ts';
import { createLogger } from '../../platform/logger.ts';
import { createWiredLedger } from '../../runtime/ledger.ts';
import { rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { stepAfterDrain } from './worker-loop.ts';
import type { DrainReport } from './projector.ts';
import {
  readHistoryPage,
  readWalletBalance,
  startProjectionWorkers,
  waitForCheckpoint,
  readViews,
  type StopWorkers,
} from '../index.ts';

let testDb: TestDatabase<unknown>;
let boss: JobBoss;
let ledger: Ledger;
let pool: pg.Pool;
let stopWorkers: StopWorkers;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  boss = createJobBoss(testDb.url, { supervise: false, schedule: false, max: 3 });
  await boss.start();
  ledger = createWiredLedger(tablesView<LedgerTables>(testDb.db));
  pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
  // No scheduled catch-up here. The interval stays (slow) because the snapshot xmin is
  // cluster-wide: in a parallel test run another file's open transaction can outlast a wake-up's retries.
  stopWorkers = await startProjectionWorkers({
    db: testDb.db,
    connectionString: testDb.url,
    boss,
    intervalMs: 2_000,
    schedule: false,
    log: createLogger('test', { level: 'silent' }),
  });
});

afterAll(async () => {
  await stopWorkers();
  await pool.end();
  await boss.stop({ graceful: false });
  await testDb.drop();
});

describe('given running projection workers', () => {
  it('projects each command after its wake-up job, and waiting on the returned checkpoint sees it', async () => {
    await ledger.openWallet({ accountId: 'asha', displayName: 'Asha' }, { actorId: 'asha' });
    await ledger.openWallet({ accountId: 'ravi', displayName: 'Ravi' }, { actorId: 'ravi' });
    await ledger.completeCardDeposit(
      {
        depositId: 'c1',
        walletId: 'asha',
        amountPaise: rupees(40),
        reference: 'card',
        provider: 'sandbox',
        paymentId: 'pi',
      },
      { actorId: 'provider:card' },
    );
    const sent = await ledger.transfer(
      { transferId: 'tx-1', fromAccountId: 'asha', toAccountId: 'ravi', amountPaise: rupees(15), reference: 'chai' },
      { actorId: 'asha' },
    );
    expect(await waitForCheckpoint(pool, 'all', sent.checkpoint, 20_000)).toBe(true);
    const read = readViews(testDb.db);
    expect(await readWalletBalance(read, 'ravi')).toBe(rupees(15));
    expect((await readHistoryPage(read, { accountId: 'ravi', page: 1 })).rows[0]?.counterparty_name).toBe('Asha');
  });
});

describe('after a drain', () => {
  const report = (changes: Partial<DrainReport>): DrainReport => ({
    projection: 'history',
    applied: 0,
    batches: 0,
    busy: false,
    checkpoint: undefined,
    more: false,
    ...changes,
  });

  it('stops when nothing is left after any checkpoint', () => {
    expect(stepAfterDrain([report({ applied: 12 }), report({ projection: 'accounts' })])).toBe('caught-up');
  });

  it('rounds again, paced by the spacing alone, when it applied events and more are waiting', () => {
    expect(stepAfterDrain([report({ applied: 3, more: true }), report({ projection: 'accounts', more: true })])).toBe(
      'round-again',
    );
  });

  it('retries after the delay when every event was held back or a peer held the rows', () => {
    expect(stepAfterDrain([report({ more: true }), report({ projection: 'accounts', busy: true })])).toBe(
      'retry-later',
    );
  });
});
