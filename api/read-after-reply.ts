/**
 * Reads consistent after every reply, without tokens: a command's success reply leaves the
 * server only once every projection has applied the command (its `data.checkpoint`), so any
 * later read - by the actor, the counterparty or an admin, with or without `minPosition` -
 * reflects it, as the original synchronous server behaved. The spec's client sends no
 * position token; without this it read "pending" right after rejecting a request, and the old
 * balances right after an accept.
 *
 * One hook for every command route: a successful envelope whose `data.checkpoint` is set is a
 * command's reply (reads and refusals carry none). The wait is bounded
 * (`READ_AFTER_REPLY_TIMEOUT_MS`, default 2 s): past it the reply still says success - the
 * command did commit - and the timeout is logged and counted, because the reads behind it
 * may be stale.
 */
import type { FastifyInstance } from 'fastify';
import type { CheckpointWaiter } from '../projections/index.ts';

export interface ReadAfterReplyObserver {
  /** The projections reached the command's checkpoint after `waitedMs`. */
  reached(waitedMs: number): void;
  /** They had not after the whole bound; the reply went anyway. */
  timedOut(waitedMs: number): void;
}

export interface ReadAfterReplyOptions {
  checkpoints: Pick<CheckpointWaiter, 'wait'>;
  /** 0 turns the wait off (a process without projection workers, e.g. some tests). */
  timeoutMs: number;
  observer?: ReadAfterReplyObserver | undefined;
}

export function installReadAfterReply(app: FastifyInstance, options: ReadAfterReplyOptions): void {
  if (options.timeoutMs <= 0) return;
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const checkpoint = commandCheckpointOf(payload);
    if (checkpoint === undefined) return payload;
    const started = performance.now();
    const reached = await options.checkpoints.wait('all', checkpoint, options.timeoutMs);
    const waitedMs = performance.now() - started;
    if (reached) {
      options.observer?.reached(waitedMs);
    } else {
      options.observer?.timedOut(waitedMs);
      request.log.warn(
        { checkpoint, waitedMs: Math.round(waitedMs) },
        'read-after-reply wait timed out: reads may lag this reply',
      );
    }
    return payload;
  });
}

/** The checkpoint of a command's success reply, or undefined for anything else. */
export function commandCheckpointOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const envelope = payload as { success?: unknown; data?: unknown };
  if (envelope.success !== true || typeof envelope.data !== 'object' || envelope.data === null) return undefined;
  const checkpoint = (envelope.data as { checkpoint?: unknown }).checkpoint;
  return typeof checkpoint === 'string' && /^\d+\.\d+$/.test(checkpoint) ? checkpoint : undefined;
}
