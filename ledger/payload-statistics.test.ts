/**
 * ANALYZE of the log leaves its payloads out (migration 0014): no plan uses statistics of a
 * whole jsonb payload, and gathering them was most of the cost of each of autovacuum's analyses
 * of `ledger.events`. The columns events are found by keep theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { withClient } from '../platform/database.ts';
import { openFundedWallets } from '../test/funded-wallets.ts';
import { createLedger, rupees, type LedgerTables } from './index.ts';

let testDb: TestDatabase<LedgerTables>;

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>();
  const ledger = createLedger({ db: testDb.db });
  await openFundedWallets(ledger, ['asha', 'ravi'], rupees(500));
  for (let n = 0; n < 3; n++)
    await ledger.transfer(
      { transferId: `t${n}`, fromAccountId: 'asha', toAccountId: 'ravi', amountPaise: rupees(10), reference: 'tea' },
      { actorId: 'asha' },
    );
});

afterAll(async () => {
  await testDb.drop();
});

describe('statistics of the log', () => {
  it('are gathered for the columns events are found by, not for the payloads', async () => {
    const analysed = await withClient(testDb.ownerUrl, async (client) => {
      await client.query('analyze ledger.events');
      const { rows } = await client.query<{ attname: string }>(
        `select attname from pg_stats where schemaname = 'ledger' and tablename = 'events' order by attname`,
      );
      return rows.map((row) => row.attname);
    });
    expect(analysed).toEqual(expect.arrayContaining(['position', 'stream_id', 'tx_id', 'type']));
    expect(analysed).not.toContain('data');
    expect(analysed).not.toContain('metadata');
  });
});
