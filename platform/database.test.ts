/**
 * A connection the server drops is logged as an error line of its own, not as the pg client
 * that pg attaches to the error (its parameters, cancel key and type parsers).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, adminQuery, type TestDatabase } from '../test/database.ts';
import { capturedLog } from '../test/captured-log.ts';
import { createPool } from './database.ts';

let testDb: TestDatabase<unknown>;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
});

afterAll(async () => {
  await testDb.drop();
});

it('logs an idle connection the server terminated without the client object', async () => {
  const captured = capturedLog('database-test');
  const pool = createPool({ connectionString: testDb.url, applicationName: 'dropped-idle', log: captured.log });
  try {
    await pool.query('select 1');
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'dropped-idle'`);
    await expect.poll(() => captured.lines().length, { timeout: 10_000 }).toBeGreaterThan(0);
    // The connection's own listener and the pool's both report it.
    const line = captured.lines().find((entry) => String(entry.msg).endsWith('connection lost'));
    expect(line?.err).toMatchObject({ message: 'terminating connection due to administrator command', code: '57P01' });
    expect(captured.text()).not.toContain('secretKey');
    expect(captured.text()).not.toContain('connectionParameters');
  } finally {
    await pool.end();
  }
});
