/**
 * One scheduler for the periodic jobs, however many worker processes schedule them:
 * every worker calls pg-boss's `schedule()` for the projections' catch-up and the ledger's
 * housekeeping, and pg-boss 12 must turn that into one job per occurrence. How it does
 * (node_modules/pg-boss/dist/timekeeper.js): the schedule is one row per (queue, key); a cron
 * pass runs on whichever instance claims it (`version.cron_on`, one claim per
 * `cronMonitorIntervalSeconds`), and the occurrence it finds is filed under a singleton key of
 * (queue, key) in a one-minute throttle slot, so two passes that both see it make one job.
 *
 * Three job bosses configured as the workers' (`createJobBoss`, scheduling on; only the cron
 * periods shortened from 30 s and 5 s to 1 s) schedule the same every-minute cron on a probe
 * queue of the standard policy (our real queues are singletons, which would hide a duplicate
 * sent while the first still waits) for several passes: exactly one job per one-minute slot.
 * Giving each instance its own key (a per-process schedule) makes three: tried.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { waitUntil } from '../test/wait.ts';
import { createJobBoss, installJobQueues, type JobBoss } from '../platform/jobs.ts';
import { PROJECTION_CATCH_UP_QUEUE, scheduleCatchUp } from '../projections/index.ts';
import { EXPIRE_IDEMPOTENCY_KEYS_QUEUE, scheduleIdempotencyKeyExpiry } from './maintenance.ts';

const INSTANCES = 3;
const PROBE_QUEUE = 'test.every-minute-probe';
/** The catch-up's cron: due at once (its last occurrence is always inside pg-boss's 60 s window). */
const EVERY_MINUTE = '* * * * *';
/** After the first job: several more 1 s cron passes and forwards, each a chance to send it again. */
const AFTER_FIRST_JOB_MS = 5_000;

let testDb: TestDatabase<unknown>;
let bosses: JobBoss[] = [];

beforeEach(async () => {
  testDb = await createTestDatabase<unknown>();
  await installJobQueues(testDb.ownerUrl, [{ name: PROBE_QUEUE, policy: 'standard' }]);
});

afterEach(async () => {
  await Promise.all(bosses.map((boss) => boss.stop({ graceful: false })));
  bosses = [];
  await testDb.drop();
});

async function startSchedulers(): Promise<JobBoss[]> {
  bosses = Array.from({ length: INSTANCES }, () =>
    createJobBoss(testDb.url, {
      supervise: false,
      schedule: true,
      max: 2,
      cronMonitorIntervalSeconds: 1,
      cronWorkerIntervalSeconds: 1,
    }),
  );
  for (const boss of bosses) boss.on('error', (error) => console.error(error));
  await Promise.all(bosses.map((boss) => boss.start()));
  return bosses;
}

async function jobsOn(queue: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = ${queue}`.execute(
    testDb.db,
  );
  return rows[0]?.n ?? 0;
}

it('sends an every-minute schedule once a minute with three instances scheduling it', async () => {
  const schedulers = await startSchedulers();
  await Promise.all(schedulers.map((boss) => boss.schedule(PROBE_QUEUE, EVERY_MINUTE)));
  await waitUntil('the first probe job', async () => (await jobsOn(PROBE_QUEUE)) > 0, {
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  // Not a wait for the system: more 1 s passes, each of which finds the occurrence still due,
  // must run to show they send no second job.
  await sleep(AFTER_FIRST_JOB_MS);

  // One job per minute slot the passes saw (the run may cross a minute: then two slots, two
  // jobs). Counted when no forward is still to send its job - a slot filed just as the run
  // crossed a minute had not sent it yet (seen in CI: two slots, one job) - and in one snapshot.
  let counts = await forwardCounts();
  await waitUntil(
    'every filed slot forwarded',
    async () => {
      counts = await forwardCounts();
      return counts.unsent === 0;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  expect(counts.slots).toBeGreaterThanOrEqual(1);
  expect(counts.jobs).toBe(counts.slots);
}, 60_000);

/** In one snapshot: the slots filed, their forwards not yet done, and the probe's jobs sent. */
async function forwardCounts(): Promise<{ slots: number; unsent: number; jobs: number }> {
  const { rows } = await sql<{ slots: number; unsent: number; jobs: number }>`
    select count(distinct f.data->>'slot')::int as slots,
           count(*) filter (where f.state in ('created', 'retry', 'active'))::int as unsent,
           (select count(*)::int from pgboss.job where name = ${PROBE_QUEUE}) as jobs
      from pgboss.job f
     where f.name = '__pgboss__send-it' and f.data->>'name' = ${PROBE_QUEUE}`.execute(testDb.db);
  return rows[0] ?? { slots: 0, unsent: 0, jobs: 0 };
}

it("keeps one schedule row per periodic job when every worker schedules the system's jobs", async () => {
  const schedulers = await startSchedulers();
  for (const boss of schedulers) {
    await scheduleCatchUp(boss);
    await scheduleIdempotencyKeyExpiry(boss);
  }
  const { rows } = await sql<{ name: string; key: string }>`
    select name, key from pgboss.schedule order by name`.execute(testDb.db);
  expect(rows).toEqual([
    { name: EXPIRE_IDEMPOTENCY_KEYS_QUEUE, key: '' },
    { name: PROJECTION_CATCH_UP_QUEUE, key: '' },
  ]);
}, 60_000);
