/**
 * Reads consistent after every reply, without tokens: a command's success reply leaves the
 * server only once every projection has applied the command (its `data.checkpoint`), so any
 * later read - by the actor, the counterparty or an admin, with or without `minPosition` -
 * reflects it, as the original synchronous server behaved. The spec's client sends no
 * position token; without this it read "pending" right after rejecting a request, and the old
 * balances right after an accept.
 *
 * One hook for every command route: a successful envelope whose `data.checkpoint` is set is a
 * command's reply (reads and refusals carry none). It waits for what the route says
 * (`config.readAfterReply`, one of REPLY_WAITS_FOR), all the projections otherwise. The wait is bounded
 * (`READ_AFTER_REPLY_TIMEOUT_MS`): past it the reply still says success - the
 * command did commit - and the timeout is logged and counted, because the reads behind it
 * may be stale.
 */
import type { FastifyInstance } from 'fastify';
import {
  DEFERRED_PROJECTIONS,
  type CheckpointWaiter,
  type ProjectionName,
  type WaitTarget,
} from '../projections/index.ts';

/**
 * What a command's reply waits for (decision 0004): the projections whose rows the command
 * changes and that its caller reads next. Every projection a command changes is in its set but
 * the daily statement figures (`statement_days`), which no client reads right after a payment and
 * which a read catches up first instead (READS_CATCH_UP, the read router). A route names its set
 * in `config.readAfterReply`; a command route that names none waits for every projection.
 */
export const REPLY_WAITS_FOR = {
  /** Transfers, deposits (a card's credited at once, a pending one in the history) and their settlement or failure. */
  payment: ['accounts', 'history'],
  /** A money request sent: only the requests lists change. */
  moneyRequestSent: ['money_requests'],
  /** A request accepted (money moves) or rejected. */
  moneyRequestAnswered: ['accounts', 'history', 'money_requests'],
} as const satisfies Record<string, readonly ProjectionName[]>;

/**
 * Projections no command's reply waits for (the registry's deferred ones): a read of one first
 * catches up with the furthest projection.
 */
export const READS_CATCH_UP: readonly ProjectionName[] = DEFERRED_PROJECTIONS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What this command route's success reply waits for (api/read-after-reply.ts); all projections when unset. */
    readAfterReply?: readonly ProjectionName[];
  }
}

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
    const waitFor: WaitTarget = request.routeOptions.config.readAfterReply ?? 'all';
    const reached = await options.checkpoints.wait(waitFor, checkpoint, options.timeoutMs);
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
