/**
 * The workers' rounds (projector.run_round, projections/engine/run-batch.sql; drainRounds): every
 * projection at the earliest checkpoint applies the same range in one transaction; a projection
 * already past that checkpoint waits for the others instead of applying events twice; and a
 * projection whose rule fails does not hold the others back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, eventCount, type TestDatabase } from '../../test/database.ts';
import { tablesView } from '../../platform/database.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../../ledger/index.ts';
import { openFundedWallets } from '../../test/funded-wallets.ts';
import { allCaughtUp, checkpointsOf } from '../../test/read-model.ts';
import { waitUntil } from '../../test/wait.ts';
import { drainProjection, drainRounds, PROJECTION_NAMES, runProjectionRound } from '../index.ts';

let testDb: TestDatabase<unknown>;
let ledger: Ledger;
let sent = 0;

beforeEach(async () => {
  testDb = await createTestDatabase<unknown>();
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  await openFundedWallets(ledger, ['asha', 'ravi'], rupees(1_000));
});

afterEach(async () => {
  await testDb.drop();
});

async function pay(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    sent += 1;
    await ledger.transfer(
      {
        transferId: `t${sent}`,
        fromAccountId: 'asha',
        toAccountId: 'ravi',
        amountPaise: rupees(1),
        reference: 'lunch',
      },
      { actorId: 'asha' },
    );
  }
}

/**
 * Not drainUntil, which drains every projection itself: `step` is the only projecting done. The
 * xmin gate is cluster-wide, so another test file's open transaction can hold events back for
 * a while.
 */
async function until(step: () => Promise<boolean>): Promise<void> {
  await waitUntil('the projections to reach the expected state', step, { timeoutMs: 20_000, intervalMs: 20 });
}

async function caughtUp(name: (typeof PROJECTION_NAMES)[number]): Promise<boolean> {
  const total = BigInt(await eventCount(testDb.db));
  return (await checkpointsOf(testDb.db))[name]?.eventsApplied === total;
}

describe('a round of the projections', () => {
  it('applies the range to those at the earliest checkpoint; one ahead waits, and each event is applied once', async () => {
    await pay(5);
    await until(async () => {
      await drainProjection(testDb.db, 'accounts');
      return caughtUp('accounts');
    });
    await pay(5);

    // The first round that gets events past the xmin gate moves the three behind, not accounts.
    let first: Awaited<ReturnType<typeof runProjectionRound>> | undefined;
    await until(async () => {
      first = await runProjectionRound(testDb.db, PROJECTION_NAMES, { batchSize: 1_000 });
      return first.status === 'done' && first.applied > 0;
    });
    if (first?.status !== 'done') throw new Error('no round applied events');
    const applied = Object.fromEntries(first.projections.map((moved) => [moved.name, moved.applied]));
    expect(applied).toEqual({
      accounts: 0,
      history: first.applied,
      money_requests: first.applied,
      statement_days: first.applied,
    });

    await until(async () => {
      await drainRounds(testDb.db, PROJECTION_NAMES);
      return allCaughtUp(testDb.db);
    });
    // Each projection counted every event once (a range applied twice fails on the tables' keys).
    const checkpoints = Object.values(await checkpointsOf(testDb.db));
    expect(new Set(checkpoints.map((checkpoint) => checkpoint.checkpoint)).size).toBe(1);
  });

  it('leaves the others moving when one rule fails, and records its error', async () => {
    const owner = new pg.Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    try {
      await owner.query(`create or replace function projector.apply_statement_days__live(
          p_from_tx xid8, p_from_position bigint, p_to_tx xid8, p_to_position bigint, p_types text[])
        returns void language plpgsql as $$ begin raise exception 'statement days broken'; end $$`);
    } finally {
      await owner.end();
    }
    await pay(3);

    await until(async () => {
      // A drain that found nothing past the xmin gate yet ran no rule, and resolves: try again.
      const failure = await drainRounds(testDb.db, PROJECTION_NAMES).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (failure === undefined) return false;
      expect(String(failure)).toMatch(/statement days broken/);
      return (await caughtUp('accounts')) && (await caughtUp('history')) && (await caughtUp('money_requests'));
    });
    const { rows } = await testDb.pool.query<{ last_error: string | null }>(
      `select last_error from read.checkpoints where projection = 'statement_days'`,
    );
    expect(rows[0]?.last_error).toMatch(/statement days broken/);
    expect(await caughtUp('statement_days')).toBe(false);
  });
});
