/**
 * The worker's health endpoint against a real database: 200 while it answers, 503 once it
 * is gone (its pool closed), and nothing served but GET /health.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { startHealthServer, type HealthServer } from './health-server.ts';

let database: TestDatabase<unknown>;
let health: HealthServer;
let databaseDropped = false;
beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  health = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    check: async () => void (await sql`select 1`.execute(database.db)),
  });
});
afterAll(async () => {
  await health.close();
  if (!databaseDropped) await database.drop();
});

const probe = (path: string, method = 'GET') => fetch(`http://127.0.0.1:${health.port}${path}`, { method });

describe('worker health endpoint', () => {
  it('answers 200 while the database answers', async () => {
    const response = await probe('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('serves nothing else', async () => {
    expect((await probe('/')).status).toBe(404);
    expect((await probe('/health', 'POST')).status).toBe(405);
  });

  it('answers 503 once the database is gone', async () => {
    await database.drop();
    databaseDropped = true;
    const response = await probe('/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable' });
  });

  it('answers 503 when the check hangs, within the timeout', async () => {
    const hanging = await startHealthServer({ port: 0, host: '127.0.0.1', check: () => new Promise(() => {}) });
    try {
      const started = Date.now();
      expect((await fetch(`http://127.0.0.1:${hanging.port}/health`)).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await hanging.close();
    }
  });
});
