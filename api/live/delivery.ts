/**
 * Writing what the ledger did to the open streams: one read of a checkpoint range, in pages,
 * planned once for every stream (./fan-out.ts) with the senders' names and the balances it
 * shows read once per page; and a joining stream's catch-up from its `Last-Event-ID`.
 */
import type { Kysely } from 'kysely';
import { compareCheckpoints, type Checkpoint } from '../../projections/index.ts';
import { readBalancesOf, readChanges, readNames, type LedgerChange } from './changes.ts';
import { eventsFor, planDeliveries } from './fan-out.ts';
import type { LiveStream } from './stream.ts';

const PAGE_SIZE = 1_000;
/** A resume further back than this many events is answered with `reset` (refetch all). */
const MAX_RESUME_EVENTS = 5_000;

/** Writes each target stream its events of `changes` after its cursor, and its new balance. */
export async function deliver(
  db: Kysely<unknown>,
  changes: readonly LedgerChange[],
  targets: readonly LiveStream[],
): Promise<void> {
  if (changes.length === 0 || targets.length === 0) return;
  const plan = planDeliveries(changes);
  const users = new Set(targets.map((stream) => stream.userId));
  const senders = new Set<string>();
  for (const userId of users)
    for (const planned of plan.byUser.get(userId) ?? [])
      if (planned.event === 'money-received') senders.add(planned.data.fromId);
  const [names, balances] = await Promise.all([
    readNames(db, [...senders]),
    readBalancesOf(
      db,
      [...plan.balances.keys()].filter((userId) => users.has(userId)),
    ),
  ]);
  for (const stream of targets) {
    const after = stream.cursor;
    if (!after) continue;
    for (const planned of eventsFor(plan, stream, after)) {
      const data =
        planned.event === 'money-received'
          ? { ...planned.data, fromName: names.get(planned.data.fromId) ?? planned.data.fromId }
          : planned.data;
      stream.send(planned.event, data, planned.checkpoint);
    }
    const moved = plan.balances.get(stream.userId);
    const balance = balances.get(stream.userId);
    if (moved && balance !== undefined && compareCheckpoints(moved, after) > 0)
      stream.send('balance', { balancePaise: balance.toString() }, moved);
  }
}

/**
 * The changes after `from` up to `to`, page by page; `targets` is asked again for each page, so
 * a stream that leaves meanwhile is written nothing more.
 */
export async function deliverRange(
  db: Kysely<unknown>,
  from: Checkpoint,
  to: Checkpoint,
  targets: () => LiveStream[],
): Promise<void> {
  for (let cursor = from; ;) {
    const page = await readChanges(db, cursor, to, PAGE_SIZE);
    await deliver(db, page, targets());
    const last = page.at(-1);
    if (page.length < PAGE_SIZE || !last) return;
    cursor = last.checkpoint;
  }
}

/** Brings a new stream to `now`: from its resume point if near enough, else with `reset`. */
export async function join(db: Kysely<unknown>, stream: LiveStream, now: Checkpoint): Promise<void> {
  const resume = stream.resumeFrom;
  if (resume === 'reset') {
    stream.send('reset', {}, now);
    stream.cursor = now;
    return;
  }
  if (!resume || compareCheckpoints(resume, now) >= 0) {
    stream.cursor = resume ?? now;
    return;
  }
  const behind = await readChanges(db, resume, now, MAX_RESUME_EVENTS + 1);
  if (behind.length > MAX_RESUME_EVENTS) {
    stream.send('reset', {}, now);
  } else {
    stream.cursor = resume;
    await deliver(db, behind, [stream]);
  }
  stream.cursor = now;
}
