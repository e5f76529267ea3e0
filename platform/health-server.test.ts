/**
 * The worker's HTTP port against a real database: /health 200 while it answers, 503 once it
 * is gone; /health/live always; /health/ready with the real readiness checks (503 naming the
 * projection that lags past the limit, and the database once it is gone); /metrics for a
 * loopback caller or the token, 404 for a forwarded one; nothing else.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Counter } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReadiness } from '../operations/index.ts';
import { createLedger, type LedgerTables } from '../ledger/index.ts';
import { drainAll } from '../projections/index.ts';
import { tablesView } from './database.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { readUntil } from '../test/wait.ts';
import { startHealthServer, type HealthServer } from './health-server.ts';
import { createMetricsRegistry } from './metrics.ts';

const TOKEN = 'worker-metrics-token-0123456789';
/** Small enough that an event left unprojected for 100 ms is past it. */
const LAG_LIMIT_SECONDS = 0.05;

let database: TestDatabase<unknown>;
let health: HealthServer;
let databaseDropped = false;
beforeAll(async () => {
  database = await createTestDatabase<unknown>();
  const registry = createMetricsRegistry();
  new Counter({ name: 'wallet_worker_test_total', help: 'A series of this registry.', registers: [registry] }).inc();
  health = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    check: async () => void (await sql`select 1`.execute(database.db)),
    ready: () => checkReadiness(database.db, { maxProjectionLagSeconds: LAG_LIMIT_SECONDS }),
    metrics: { registry, token: TOKEN },
  });
});
afterAll(async () => {
  await health.close();
  if (!databaseDropped) await database.drop();
});

const probe = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${health.port}${path}`, { method, headers });

/**
 * Drains the projections, then asks /health/ready. Polled: the projectors' xmin gate is the
 * whole server's, so a write transaction still open in another test file's database holds a
 * just-appended event back for a moment, past this file's 50 ms lag limit.
 */
async function drainedAndReady(): Promise<number> {
  await drainAll(database.db);
  return (await probe('/health/ready')).status;
}

describe('worker health endpoint', () => {
  it('answers 200 while the database answers', async () => {
    const response = await probe('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is live, and ready until an event waits unprojected past the lag limit', async () => {
    expect(await (await probe('/health/live')).json()).toEqual({ status: 'live' });
    await expect.poll(drainedAndReady, { timeout: 10_000 }).toBe(200);
    const ready = await probe('/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { migrations: { ok: true, detail: 'current' } },
    });

    // A wallet opened through the ledger; no projection worker runs here to apply it.
    const ledger = createLedger({ db: tablesView<LedgerTables>(database.db), batching: false });
    await ledger.openWallet({ accountId: randomUUID(), displayName: 'Lag Test' }, { actorId: 'test' });
    // Polled until the wallet's event is older than the limit (no projection worker runs here).
    const lagging = await readUntil(
      'the worker to report the unprojected event past the lag limit',
      async () => {
        const response = await probe('/health/ready');
        return { status: response.status, body: (await response.json()) as unknown };
      },
      (response) => response.status === 503,
      { timeoutMs: 10_000 },
    );
    expect(lagging.status).toBe(503);
    const body = lagging.body as { status: string; checks: Record<string, { ok: boolean; detail: string }> };
    expect(body.status).toBe('not_ready');
    expect(body.checks.database).toEqual({ ok: true, detail: 'reachable' });
    expect(body.checks.projections?.ok).toBe(false);
    expect(body.checks.projections?.detail).toMatch(/accounts \d+\.\d s behind/);
    await expect.poll(drainedAndReady, { timeout: 10_000 }).toBe(200);
  });

  it('serves /metrics to loopback and to the token, 404 to a forwarded caller without it', async () => {
    const direct = await probe('/metrics');
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await direct.text();
    expect(text).toMatch(/^wallet_worker_test_total 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect((await probe('/metrics', 'GET', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(404);
    expect(
      (await probe('/metrics', 'GET', { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` })).status,
    ).toBe(200);
    expect((await probe('/metrics', 'GET', { via: '1.1 proxy', authorization: 'Bearer wrong' })).status).toBe(404);
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
    const ready = await probe('/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not_ready', checks: { database: { ok: false } } });
    expect((await probe('/health/live')).status).toBe(200);
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
