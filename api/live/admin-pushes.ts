/**
 * What admins' streams are told besides the ledger's events: replay progress and each recorded
 * verify run (both reported to a table by whichever process ran them, so they are read here,
 * once for all streams, and sent when they change), and the projections' status (lag).
 */
import type { Kysely } from 'kysely';
import { PROJECTION_NAMES, latestReplayRun } from '../../projections/index.ts';
import { readProjectionsOverview } from '../../operations/projections.ts';
import { lastVerifyRun } from '../../audit/verify-runs.ts';
import type { LiveStream } from './stream.ts';

/** The latest verify run's id is remembered beside the replays' runs under this name. */
const VERIFY_KEY = 'verify:latest';

export interface AdminPushes {
  /** Sends the admins among `streams` each replay run and verify run not sent yet. */
  pollRuns(streams: Iterable<LiveStream>): Promise<void>;
  /** Sends the joined admins among `streams` the projections' status. */
  pushProjections(streams: Iterable<LiveStream>): Promise<void>;
  /** Forgets what was sent: the next admin stream after a pause hears the latest runs again. */
  forget(): void;
}

export function createAdminPushes(db: Kysely<unknown>): AdminPushes {
  const lastSent = new Map<string, string>();
  return {
    async pollRuns(streams) {
      const admins = [...streams].filter((stream) => stream.isAdmin);
      if (admins.length === 0) return;
      for (const name of PROJECTION_NAMES) {
        const run = await latestReplayRun(db, name);
        const text = run ? JSON.stringify(run) : '';
        if (!run || lastSent.get(name) === text) continue;
        lastSent.set(name, text);
        for (const stream of admins) stream.send('replay', run);
      }
      const verify = await lastVerifyRun(db);
      if (verify && lastSent.get(VERIFY_KEY) !== verify.id) {
        lastSent.set(VERIFY_KEY, verify.id);
        for (const stream of admins) stream.send('verify', verify);
      }
    },
    async pushProjections(streams) {
      const admins = [...streams].filter((stream) => stream.isAdmin && stream.cursor);
      if (admins.length === 0) return;
      const overview = await readProjectionsOverview(db);
      for (const stream of admins) stream.send('projections', overview);
    },
    forget: () => lastSent.clear(),
  };
}
