/**
 * The projections as an operator watches and rebuilds them from the admin pages: each one's
 * status with its latest replay, and a replay requested with its audit row. (The status
 * alone is ./projection-status.ts; the replay jobs are projections/engine/replay-jobs.ts.)
 */
import type { Kysely } from 'kysely';
import { recordAdminAction } from '../audit/index.ts';
import type { ProjectionsOverview, ReplayRun } from '../contracts/admin.ts';
import type { JobBoss } from '../platform/jobs.ts';
import { latestReplayRun, PROJECTION_NAMES, requestReplay, type ProjectionName } from '../projections/index.ts';
import { projectionStatus } from './projection-status.ts';

export async function readProjectionsOverview(db: Kysely<unknown>): Promise<ProjectionsOverview> {
  const status = await projectionStatus(db);
  const replays = await Promise.all(
    PROJECTION_NAMES.map(async (name) => [name, (await latestReplayRun(db, name)) ?? null] as const),
  );
  return {
    projections: status.projections.map((p) => ({
      name: p.projection,
      checkpoint: p.checkpoint,
      eventsApplied: Number(p.eventsApplied),
      lagEvents: Number(p.eventsBehind),
      lagSeconds: p.secondsBehind,
      updatedAt: p.updatedAt.toISOString(),
      lastError: p.lastError,
      lastReplay: replays.find(([name]) => name === p.projection)?.[1] ?? null,
    })),
    heldBackEvents: Number(status.heldBackEvents),
    heldBackSeconds: status.heldBackSeconds,
    holder: status.holder ?? null,
  };
}

export interface ReplayRequest {
  projection: ProjectionName;
  adminId: string;
  reason: string | null;
}

/** The run, its job and the admin's audit row commit together: a queued run always has a job. */
export async function requestProjectionReplay(
  deps: { db: Kysely<unknown>; boss: JobBoss },
  request: ReplayRequest,
): Promise<ReplayRun> {
  return deps.db.transaction().execute(async (trx) => {
    const queued = await requestReplay(deps.boss, trx, request.projection, request.adminId);
    await recordAdminAction(trx, {
      actorId: request.adminId,
      action: 'replay',
      target: request.projection,
      reason: request.reason,
      details: { runId: queued.id },
    });
    return queued;
  });
}

/** The latest replay of one projection, for polling; undefined when none was ever requested. */
export async function latestReplay(db: Kysely<unknown>, projection: ProjectionName): Promise<ReplayRun | undefined> {
  return latestReplayRun(db, projection);
}
