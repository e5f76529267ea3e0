/**
 * The API's health probes on a real database: /api/health/live answers while the process
 * does; /api/health/ready answers 503 in the envelope, naming the failed check, when events
 * wait unprojected past the lag limit (no projection workers run in this harness), when a
 * migration is missing from the database, and when the database is gone; /api/health keeps
 * its old answer.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/database.ts';
import { drainAll } from '../projections/index.ts';
import { registeredUser, startHarness, startSiblingApp, type Harness } from '../test/app-harness.ts';
import { createTestDatabase } from '../test/database.ts';
import { readUntil } from '../test/wait.ts';
import { READY_CACHE_MS } from './routes/health.ts';

let harness: Harness;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

beforeAll(async () => {
  harness = await startHarness();
}, 120_000);

afterAll(async () => {
  await harness.close();
});

interface Checks {
  database: { ok: boolean; detail: string };
  migrations: { ok: boolean; detail: string };
  projections: { ok: boolean; detail: string };
}

async function probe(app: FastifyInstance, url: string, options: Partial<InjectOptions> = {}) {
  const response = await app.inject({ method: 'GET', url, ...options });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as { success: boolean; message: string; code?: string; data?: { checks: Checks } },
  };
}

/** As if this code were deployed over a database one migration behind it. */
async function forgetMigration(ownerUrl: string, name: string): Promise<void> {
  const owner = openDatabase<unknown>({ connectionString: ownerUrl, maxConnections: 1 });
  try {
    await sql`delete from public.kysely_migration where name = ${name}`.execute(owner.db);
  } finally {
    await owner.db.destroy();
  }
}

describe('GET /api/health/live and /api/health', () => {
  it('answers 200 in the envelope', async () => {
    expect(await probe(harness.app, '/api/health/live')).toEqual({
      status: 200,
      body: { success: true, message: 'live' },
    });
    expect(await probe(harness.app, '/api/health')).toEqual({
      status: 200,
      body: { success: true, message: 'ok', data: { database: 'up' } },
    });
  });
});

describe('GET /api/health/ready', () => {
  it('is ready while every projection is within the limit, and 503 once events wait past it', async () => {
    await drainAll(harness.database.db);
    const ready = await probe(harness.app, '/api/health/ready');
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.data?.checks).toMatchObject({
      database: { ok: true },
      migrations: { ok: true, detail: 'current' },
      projections: { ok: true },
    });

    // A registration appends WalletOpened; nothing projects it here. With a 50 ms limit it is soon too old.
    const strict = await startSiblingApp(harness, { readyMaxProjectionLagSeconds: 0.05 });
    try {
      await registeredUser(harness, 'lagging@example.in');
      // Polled until the event is older than 50 ms; each probe steps past the readiness cache.
      const lagging = await readUntil(
        'the strict app to see the unprojected event past its 50 ms limit',
        () => {
          harness.clock.advance(READY_CACHE_MS + 1);
          return probe(strict, '/api/health/ready');
        },
        (reply) => reply.status === 503,
        { timeoutMs: 10_000 },
      );
      expect(lagging.status).toBe(503);
      expect(lagging.body).toMatchObject({ success: false, code: 'not_ready' });
      expect(lagging.body.message).toMatch(/^Not ready: projections: .*accounts \d+\.\d s behind.*\(limit 0\.05 s\)$/);
      expect(lagging.body.data?.checks).toMatchObject({
        database: { ok: true },
        migrations: { ok: true },
        projections: { ok: false },
      });
      // The default limit (30 s) is not reached by the same lag.
      expect((await probe(harness.app, '/api/health/ready')).status).toBe(200);

      // Polled: the projectors' xmin gate is the whole server's, so a write transaction still
      // open in another test file's database holds the event back for a moment, past 50 ms.
      await expect
        .poll(
          async () => {
            await drainAll(harness.database.db);
            harness.clock.advance(READY_CACHE_MS + 1);
            return (await probe(strict, '/api/health/ready')).status;
          },
          { timeout: 10_000 },
        )
        .toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('is not ready when a migration has not run, nor when the database is gone (live still answers)', async () => {
    const other = await createTestDatabase<unknown>();
    let dropped = false;
    const app = await startSiblingApp(harness, {}, { db: other.db, pool: other.pool });
    try {
      expect((await probe(app, '/api/health/ready')).status).toBe(200);
      await forgetMigration(other.ownerUrl, '0001_baseline');
      harness.clock.advance(READY_CACHE_MS + 1);
      const behind = await probe(app, '/api/health/ready');
      expect(behind.status).toBe(503);
      expect(behind.body.data?.checks.migrations).toEqual({ ok: false, detail: '1 pending: 0001_baseline' });
      expect(behind.body.data?.checks.database.ok).toBe(true);

      await other.drop();
      dropped = true;
      harness.clock.advance(READY_CACHE_MS + 1);
      const gone = await probe(app, '/api/health/ready');
      expect(gone.status).toBe(503);
      expect(gone.body).toMatchObject({ success: false, code: 'not_ready' });
      expect(gone.body.data?.checks).toEqual({
        database: { ok: false, detail: 'unreachable' },
        migrations: { ok: false, detail: 'not checked: the database is unreachable' },
        projections: { ok: false, detail: 'not checked: the database is unreachable' },
      });
      // The old probe fails too, as it always has (a dropped database is a 500 there, not a connection refusal).
      expect((await probe(app, '/api/health')).status).toBeGreaterThanOrEqual(500);
      expect((await probe(app, '/api/health/live')).status).toBe(200);
    } finally {
      await app.close();
      if (!dropped) await other.drop();
    }
  });
});

describe('GET /api/health/ready: who sees what, and what a flood costs', () => {
  it('tells the public only up or down; the checks go to a loopback caller with no forwarding header, or the metrics token', async () => {
    const other = await createTestDatabase<unknown>();
    const app = await startSiblingApp(harness, { metricsToken: METRICS_TOKEN }, { db: other.db, pool: other.pool });
    const behindProxy = await startSiblingApp(
      harness,
      { metricsToken: METRICS_TOKEN, trustedProxies: { hops: 1, addresses: ['loopback'] } },
      { db: other.db, pool: other.pool },
    );
    const publicCallers: Partial<InjectOptions>[] = [
      { remoteAddress: '203.0.113.9' },
      // Loopback, but through a proxy on this host: the caller is someone else.
      { headers: { 'x-forwarded-for': '203.0.113.9' } },
      { headers: { forwarded: 'for=203.0.113.9' } },
      { remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer not-the-metrics-token' } },
    ];
    const operator: Partial<InjectOptions> = {
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    };
    try {
      for (const caller of publicCallers)
        expect(await probe(app, '/api/health/ready', caller), JSON.stringify(caller)).toEqual({
          status: 200,
          body: { success: true, message: 'ready' },
        });
      // Behind a trusted proxy every caller arrives from loopback: only the token shows the checks.
      expect((await probe(behindProxy, '/api/health/ready')).body).toEqual({ success: true, message: 'ready' });
      expect((await probe(behindProxy, '/api/health/ready', operator)).body.data?.checks.migrations).toEqual({
        ok: true,
        detail: 'current',
      });
      expect((await probe(app, '/api/health/ready')).body.data?.checks.database).toEqual({
        ok: true,
        detail: 'reachable',
      });

      await forgetMigration(other.ownerUrl, '0001_baseline');
      harness.clock.advance(READY_CACHE_MS + 1);
      // Down, without a word of why: no migration name, no projection, no lag.
      for (const caller of publicCallers) {
        const down = await probe(app, '/api/health/ready', caller);
        expect(down, JSON.stringify(caller)).toEqual({
          status: 503,
          body: { success: false, message: 'Not ready', code: 'not_ready' },
        });
      }
      const detailed = await probe(app, '/api/health/ready', operator);
      expect(detailed.status).toBe(503);
      expect(detailed.body.message).toContain('0001_baseline');
      expect(detailed.body.data?.checks.migrations).toEqual({ ok: false, detail: '1 pending: 0001_baseline' });
    } finally {
      await app.close();
      await behindProxy.close();
      await other.drop();
    }
  });

  it('runs its checks at most once a second, however many ask (and callers at the same moment share one run)', async () => {
    const other = await createTestDatabase<unknown>();
    const app = await startSiblingApp(harness, {}, { db: other.db, pool: other.pool });
    try {
      const flood = await Promise.all(Array.from({ length: 20 }, () => probe(app, '/api/health/ready')));
      expect(new Set(flood.map((answer) => answer.status))).toEqual(new Set([200]));
      await forgetMigration(other.ownerUrl, '0001_baseline');
      // Within the second the last answer stands: the flood ran no query.
      harness.clock.advance(READY_CACHE_MS - 1);
      for (let call = 0; call < 20; call++) expect((await probe(app, '/api/health/ready')).status).toBe(200);
      // Past it, the next call checks again.
      harness.clock.advance(2);
      expect((await probe(app, '/api/health/ready')).status).toBe(503);
    } finally {
      await app.close();
      await other.drop();
    }
  });
});
