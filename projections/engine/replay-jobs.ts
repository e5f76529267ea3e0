/**
 * Replays requested by an operator (POST /api/admin/projections/:name/replay) run as pg-boss
 * jobs on the workers, not in the API process: a replay of 100,000 events takes seconds to
 * minutes. Each request is a row in audit.replay_runs (migrations/0001_baseline.ts) that the job keeps
 * up to date (state, processed of total) so the caller can poll it.
 *
 * The row and the job are created in the caller's transaction (with its audit row), so a
 * queued run always has a job. A job that finds its run no longer queued (a retry after a
 * crash mid-replay) starts it again: replay is restartable by design (it drops leftovers).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { sendInTransaction, type JobBoss, type QueueSpec } from '../../platform/jobs.ts';
import type { ProjectionName } from './definition.ts';
import { replayProjection } from './replay.ts';
import type { ReplayRun, ReplayState } from '../../contracts/admin.ts';
export type { ReplayRun, ReplayState } from '../../contracts/admin.ts';

export const PROJECTION_REPLAY_QUEUE = 'projections.replay';

export const replayQueues: readonly QueueSpec[] = [
  // A replay holds an advisory lock per projection; retries after a crash restart it.
  { name: PROJECTION_REPLAY_QUEUE, policy: 'standard', retryLimit: 2, expireInSeconds: 3_600 },
];

interface ReplayRunRow {
  id: bigint;
  projection: string;
  state: ReplayState;
  requested_by: string;
  processed: bigint;
  total: bigint;
  error: string | null;
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

function toRun(row: ReplayRunRow): ReplayRun {
  return {
    id: String(row.id),
    projection: row.projection,
    state: row.state,
    requestedBy: row.requested_by,
    processed: Number(row.processed),
    total: Number(row.total),
    error: row.error,
    requestedAt: row.requested_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** Creates the run row and enqueues its job in the caller's transaction. */
export async function requestReplay(
  boss: JobBoss,
  trx: Transaction<unknown>,
  projection: ProjectionName,
  requestedBy: string,
): Promise<ReplayRun> {
  const { rows } = await sql<ReplayRunRow>`
    insert into audit.replay_runs (projection, state, requested_by) values (${projection}, 'queued', ${requestedBy})
    returning *`.execute(trx);
  const row = rows[0];
  if (!row) throw new Error('replay run not created');
  await sendInTransaction(boss, trx, PROJECTION_REPLAY_QUEUE, { runId: String(row.id), projection });
  return toRun(row);
}

export async function latestReplayRun(db: Kysely<unknown>, projection: ProjectionName): Promise<ReplayRun | undefined> {
  const { rows } =
    await sql<ReplayRunRow>`select * from audit.replay_runs where projection = ${projection} order by id desc limit 1`.execute(
      db,
    );
  return rows[0] ? toRun(rows[0]) : undefined;
}

/** Progress is written at most this often: a row update per batch would slow the replay. */
const PROGRESS_EVERY_MS = 250;

export interface ReplayJobData {
  runId: string;
  projection: ProjectionName;
}

export async function runReplayJob(db: Kysely<unknown>, job: ReplayJobData): Promise<void> {
  await sql`update audit.replay_runs set state = 'running', started_at = now(), error = null where id = ${job.runId}::bigint`.execute(
    db,
  );
  let lastWrite = 0;
  let pending: Promise<unknown> = Promise.resolve();
  try {
    const report = await replayProjection(db, job.projection, {
      onProgress: (progress) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        pending = pending
          .then(() =>
            sql`update audit.replay_runs set processed = ${progress.applied}, total = ${progress.total} where id = ${job.runId}::bigint`.execute(
              db,
            ),
          )
          .catch(() => undefined);
      },
    });
    await pending;
    await sql`update audit.replay_runs set state = 'done', processed = ${report.events}, total = greatest(total, ${report.events}), finished_at = now() where id = ${job.runId}::bigint`.execute(
      db,
    );
  } catch (error) {
    await pending;
    const message = error instanceof Error ? error.message : String(error);
    await sql`update audit.replay_runs set state = 'failed', error = ${message.slice(0, 1_000)}, finished_at = now() where id = ${job.runId}::bigint`.execute(
      db,
    );
    throw error;
  }
}

/** Starts the replay worker (one replay at a time per process). */
export async function startReplayWorker(db: Kysely<unknown>, boss: JobBoss): Promise<() => Promise<void>> {
  await boss.work<ReplayJobData>(
    PROJECTION_REPLAY_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 0.5 },
    async (jobs) => {
      for (const job of jobs) await runReplayJob(db, job.data);
    },
  );
  return async () => {
    await boss.offWork(PROJECTION_REPLAY_QUEUE);
  };
}
