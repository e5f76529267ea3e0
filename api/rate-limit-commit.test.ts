/**
 * The rate-limit count commits without waiting for a synchronous standby (or its own WAL
 * flush): every signed-in request is counted, so a durable count put a standby's round trip
 * in front of every read and payment (issue 40). A private server requires a standby that never
 * connects: a durable commit waits there forever, the count must not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, withClient } from '../platform/database.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import { countRequests } from './auth/rate-limit-store.ts';

const root = mkdtempSync(join(tmpdir(), 'wallet-sync-standby-'));
let server: EmbeddedServer;
let url: string;

beforeAll(async () => {
  server = await startEmbeddedPostgres({ dataDir: join(root, 'data'), persistent: false });
  url = server.socketUrl('postgres');
  await migrateDatabase(url, installation);
  await withClient(url, async (client) => {
    await client.query('create table standby_probe (n int)');
    await client.query(`alter system set synchronous_standby_names = 'a_standby_that_never_connects'`);
    await client.query('select pg_reload_conf()');
  });
});
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Settles with the promise's value, or 'waiting' when it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'waiting'> {
  return Promise.race([promise, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);
}

describe('the rate-limit count with a synchronous standby required', () => {
  it('answers at once, while a durable commit beside it waits for the standby', async () => {
    // The control: a durable write on this server waits for the standby that never comes.
    const durable = new pg.Client({ connectionString: url });
    await durable.connect();
    durable.on('error', () => {});
    const waiting = durable.query('insert into standby_probe values (1)').catch(() => 'ended');

    const { db } = openDatabase<unknown>({ connectionString: url, maxConnections: 1 });
    try {
      const counted = await within(
        countRequests(db, [
          { key: 'api|203.0.113.7', windowMs: 60_000 },
          { key: 'api|203.0.113.7', windowMs: 60_000 },
        ]),
        5_000,
      );
      expect(counted).not.toBe('waiting');
      expect(counted).toEqual([
        { ok: true, value: { current: 1, ttl: expect.any(Number) } },
        { ok: true, value: { current: 2, ttl: expect.any(Number) } },
      ]);
      expect(await within(waiting, 200)).toBe('waiting');
      // And the count is in the table for the next request.
      const again = await countRequests(db, [{ key: 'api|203.0.113.7', windowMs: 60_000 }]);
      expect(again).toEqual([{ ok: true, value: { current: 3, ttl: expect.any(Number) } }]);
    } finally {
      // Whatever still waits for the standby (the durable insert; the count too, if it waited)
      // is ended rather than waited for.
      await withClient(url, (client) =>
        client.query(`select pg_terminate_backend(pid) from pg_stat_activity where wait_event = 'SyncRep'`),
      );
      await db.destroy();
      await waiting;
      await durable.end().catch(() => {});
    }
  });
});
