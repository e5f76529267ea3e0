/**
 * An adversary for the suite's independence rule (vitest.config.ts): a transaction with an
 * xid held open in a database of its own on the tests' cluster, again and again, as another
 * test file's might be. Every projection on the cluster stalls behind it while it is open; a
 * file that expects one drain or one batch to have applied its events fails under it, and a
 * file that waits for the state it expects passes. Started by the global setup when
 * TEST_XMIN_HOLD_MS is set (`TEST_XMIN_HOLD_MS=1500 npx vitest run --project server`).
 */
import pg from 'pg';
import { withClient } from '../platform/database.ts';

export interface XminHolder {
  stop(): Promise<void>;
  /** How many times it held the horizon back. */
  holds(): number;
}

const DATABASE = 'xmin_holder';

export async function startXminHolder(adminUrl: string, holdMs: number, gapMs = holdMs): Promise<XminHolder> {
  await withClient(adminUrl, async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  const client = new pg.Client({ connectionString: url.toString(), application_name: 'xmin-holder' });
  await client.connect();
  let running = true;
  let count = 0;
  // Not a wait for the system: the hold and the gap are the neighbour's scripted timeline.
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const loop = (async () => {
    while (running) {
      await client.query('begin');
      await client.query('select pg_current_xact_id()');
      count += 1;
      await sleep(holdMs);
      await client.query('commit');
      await sleep(gapMs);
    }
  })();
  return {
    holds: () => count,
    stop: async () => {
      running = false;
      await loop.catch(() => undefined);
      await client.end();
    },
  };
}
