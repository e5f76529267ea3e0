/**
 * A projection worker as a separate process, for the crash and concurrency tests:
 * `node test/projection-worker-process.ts <database url>` drains every projection until
 * nothing is left, then exits 0 (1 after DEADLINE_MS). PAUSE_MS holds each batch open before
 * it commits (so a test can kill it mid-batch); BATCH_SIZE sets the batch size; APPLICATION_NAME
 * labels its connections (so a test can tell two workers apart in pg_stat_activity). It prints
 * a line the first time it finds a peer holding a projection, and at the end (its last line)
 * what it applied and how many of its drains found one.
 */
import { createDatabase } from '../platform/database.ts';
import { drainAll, hasUnprojectedEvents } from '../projections/index.ts';
import { WaitTimeout, waitUntil } from './wait.ts';

const DEADLINE_MS = 60_000;
const url = process.argv[2];
if (!url) throw new Error('usage: worker-process.ts <database url>');
const db = createDatabase<unknown>({
  connectionString: url,
  maxConnections: 4,
  applicationName: process.env.APPLICATION_NAME ?? 'projection-test-worker',
});
const options = {
  batchSize: Number(process.env.BATCH_SIZE ?? 100),
  pauseBeforeCommitMs: Number(process.env.PAUSE_MS ?? 0),
};
let applied = 0;
let busy = 0;
// Drains until no peer holds a projection and nothing is left; past DEADLINE_MS it reports
// what it got to (caughtUp false) and exits 1.
await waitUntil(
  'every projection to catch up',
  async () => {
    const reports = await drainAll(db, options);
    applied += reports.reduce((sum, report) => sum + report.applied, 0);
    const found = reports.filter((report) => report.busy).length;
    // Said once, as it happens, so a test can wait for it instead of for a guessed time.
    if (busy === 0 && found > 0) process.stdout.write('a peer holds a projection\n');
    busy += found;
    return found === 0 && !(await hasUnprojectedEvents(db));
  },
  { timeoutMs: DEADLINE_MS, intervalMs: 20 },
).catch((error: unknown) => {
  if (!(error instanceof WaitTimeout)) throw error;
});
const caughtUp = !(await hasUnprojectedEvents(db));
process.stdout.write(`${JSON.stringify({ applied, busy, caughtUp })}\n`);
await db.destroy();
process.exit(caughtUp ? 0 : 1);
