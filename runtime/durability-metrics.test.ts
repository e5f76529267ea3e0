/**
 * The durability gauges against the tests' embedded Postgres: one server, no standbys, no
 * archiving. What it can show: not in recovery, timeline 1, no synchronous standby and no
 * synchronous commit required, archive age NaN and no failed archiving; and that the runtime
 * role (not a member of pg_read_all_stats) gets NaN for the synchronous standbys instead of a
 * false 0, while the owner (the server's superuser) sees 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/database.ts';
import { createMetricsRegistry, scrape } from '../platform/metrics.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { readDurabilityState, registerDurabilityGauges } from './durability-metrics.ts';

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
});

afterAll(async () => {
  await testDb.drop();
});

function value(body: string, name: string): string | undefined {
  return new RegExp(`^${name} (\\S+)$`, 'm').exec(body)?.[1];
}

describe('durability gauges on a single server', () => {
  it('the runtime role reads what it may: a primary on timeline 1, archiving off, standbys not visible', async () => {
    const state = await readDurabilityState(testDb.db);
    expect(state).toMatchObject({
      inRecovery: false,
      timeline: 1,
      seesReplication: false,
      standbys: [],
      synchronousCommitRequired: false,
      archiveAgeSeconds: null,
      archiveFailed: 0,
    });

    const registry = createMetricsRegistry();
    registerDurabilityGauges(registry, testDb.db);
    const { body } = await scrape(registry);
    expect(value(body, 'wallet_database_in_recovery')).toBe('0');
    expect(value(body, 'wallet_database_timeline')).toBe('1');
    expect(value(body, 'wallet_synchronous_standbys')).toBe('Nan');
    expect(value(body, 'wallet_synchronous_commit_required')).toBe('0');
    expect(value(body, 'wallet_wal_archive_last_success_age_seconds')).toBe('Nan');
    expect(value(body, 'wallet_wal_archive_failed_total')).toBe('0');
    // No standby: the family is declared, with no series.
    expect(body).toContain('# TYPE wallet_replication_lag_seconds gauge');
    expect(body).not.toMatch(/^wallet_replication_lag_seconds\{/m);
  });

  it('a superuser sees the (empty) standby list: 0 synchronous standbys', async () => {
    const { db } = openDatabase<unknown>({ connectionString: testDb.ownerUrl, maxConnections: 1 });
    try {
      const state = await readDurabilityState(db);
      expect(state).toMatchObject({ inRecovery: false, timeline: 1, seesReplication: true, standbys: [] });
      const registry = createMetricsRegistry();
      registerDurabilityGauges(registry, db);
      expect(value((await scrape(registry)).body, 'wallet_synchronous_standbys')).toBe('0');
    } finally {
      await db.destroy();
    }
  });
});
