import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { tablesView } from '../platform/database.ts';
import { createLedger, rupees, type LedgerTables } from '../ledger/index.ts';
import { allCaughtUp, drainUntil } from '../test/read-model.ts';
import { readTrialBalance } from '../audit/index.ts';
import { capturedIo } from './io.ts';
import { EXIT_OK, runCli } from './main.ts';

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  const ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  await ledger.openWallet({ accountId: 'alice', displayName: 'Alice' }, { actorId: 'alice' });
  await ledger.requestDeposit(
    {
      depositId: 'd1',
      walletId: 'alice',
      amountPaise: rupees(900),
      method: 'upi',
      reference: 'top up',
      details: { upiId: 'a@upi' },
    },
    { actorId: 'alice' },
  );
  await ledger.settleDeposit({ depositId: 'd1' }, { actorId: 'admin' });
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

it('`ledger verify` records its run, which the trial balance then shows as the last one', async () => {
  expect((await readTrialBalance(testDb.db)).lastVerify).toBeNull();
  const io = capturedIo();
  expect(await runCli(['verify'], io, { DATABASE_URL: testDb.url, DATA_DIR: '/nonexistent' })).toBe(EXIT_OK);
  // No warning or error (a note of which database it used is an info line).
  const levels = io.stderr.map((line) => (JSON.parse(line) as { level: number }).level);
  expect(levels.filter((level) => level >= 40)).toEqual([]);
  const balance = await readTrialBalance(testDb.db);
  expect(balance.lastVerify).toMatchObject({ source: 'cli', ok: true, differences: [], totalPaise: '0' });
  expect(Date.now() - Date.parse(balance.lastVerify?.ranAt ?? '')).toBeLessThan(60_000);
  expect(balance.fundingSources.find((source) => source.method === 'upi')).toMatchObject({
    balance: -900,
    postings: 1,
  });
  expect(balance.balanced).toBe(true);
});
