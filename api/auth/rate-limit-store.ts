/**
 * The @fastify/rate-limit store in Postgres (table `ratelimit.counters`, migrations/0001_baseline.ts), so
 * that every API process counts against the same limits and a restart resets nothing.
 *
 * One upsert per batch of counted requests: it starts a window (hits = the requests, reset_at =
 * now + window) or counts into the running one, and returns the count and the time left. The
 * requests of a process are gathered by the ledger's group-commit policy (`createBatcher`):
 * one goes at once when no count is on its way, and those that arrive meanwhile go together,
 * one statement for all of them - a statement per request was one of the round trips each
 * payment queued behind on the API's one thread (issue 40). Requests of one key in a batch are
 * counted as one row (an upsert may not touch a row twice) and answered in turn, each its own
 * count, as if they had come one after another.
 * Each limit has its own scope in the key: the shared API-wide limit, or the route's own
 * (`POST /api/users/login`) for routes with a limit of their own, as the plugin's Redis store
 * does, or their group's (`group account-lookup`) for routes that share one. Expired rows are deleted in batches: once a minute per process, and batch after batch
 * (one at a time) while a batch comes back full, so a flood from many addresses is cleared
 * as fast as it expires.
 *
 * A store that cannot answer (database down) fails the request with 503 `database_unavailable`
 * rather than letting it through unlimited: the limiter cannot tell a flood from a client, and
 * every limited route needs the database anyway.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import { createBatcher, READ_BATCHING, type Settled } from '../../ledger/index.ts';
import { ApiError } from '../errors.ts';

/** Expired rows are swept at most this often per process... */
export const SWEEP_INTERVAL_MS = 60_000;
/** ...and at most this many per sweep, so a sweep is a short index range delete. */
export const SWEEP_BATCH_ROWS = 5_000;

/** The schema of the counters, which the runtime writes row by row (runtime/installation.ts lists it). */
export const RATE_LIMIT_SCHEMAS = [
  { schema: 'ratelimit', tables: ['select', 'insert', 'update', 'delete'], functions: false },
] as const;

/** The scope of the shared API-wide limit; routes with a limit of their own use "METHOD /url". */
const SHARED_SCOPE = 'api';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export interface RateLimitStoreHandle {
  /** The store class to give @fastify/rate-limit (`store:`). */
  Store: FastifyRateLimitStoreCtor;
  /** Resolves when no sweep is running (call before the database closes). */
  idle(): Promise<void>;
}

export function createPostgresRateLimitStore(db: Kysely<unknown>): RateLimitStoreHandle {
  const sweeper = createSweeper(db);
  const count = createBatcher(READ_BATCHING, (requests: readonly CountedRequest[]) => countRequests(db, requests));
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly scope: string;
    constructor(_options?: FastifyRateLimitOptions, scope = SHARED_SCOPE) {
      this.scope = scope;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      count({ key: `${this.scope}|${key}`, windowMs: timeWindow }).then(
        (result) => callback(null, result),
        (error: unknown) => callback(unavailable(error)),
      );
      sweeper.maybeSweep();
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // Routes of one group (the settings' `groupId`) share one scope, so they share one count.
      const groupId = (routeOptions as { groupId?: unknown }).groupId;
      if (typeof groupId === 'string') return new PostgresRateLimitStore(undefined, `group ${groupId}`);
      // The plugin (11.x) passes its merged route settings with the route under `routeInfo`,
      // where its types promise the route options themselves: read either.
      const route = (routeOptions as { routeInfo?: { method: unknown; url: unknown } }).routeInfo ?? routeOptions;
      return new PostgresRateLimitStore(undefined, `${String(route.method)} ${String(route.url)}`);
    }
  }
  return { Store: PostgresRateLimitStore, idle: () => sweeper.idle() };
}

export interface CountedRequest {
  key: string;
  windowMs: number;
}

export interface RequestCount {
  /** The requests of the key in its current window, this one included. */
  current: number;
  /** Milliseconds left in the window. */
  ttl: number;
}

/** Counts one request of `key`; the count in the current window and the milliseconds left in it. */
export async function countRequest(db: Kysely<unknown>, key: string, windowMs: number): Promise<RequestCount> {
  const [outcome] = await countRequests(db, [{ key, windowMs }]);
  if (!outcome?.ok) throw outcome?.error ?? new Error('rate-limit upsert returned no row');
  return outcome.value;
}

/**
 * Counts a batch of requests in one statement, one outcome per request in order. A key's rows
 * are upserted in key order, so two processes' batches lock shared keys in the same order.
 */
export async function countRequests(
  db: Kysely<unknown>,
  requests: readonly CountedRequest[],
): Promise<Settled<RequestCount>[]> {
  const { rows } = await sql<{ key: string; hits: number; ttl_ms: number }>`
    with wanted as (
      select r.key, count(*) as hits, max(r.window_ms) as window_ms
        from unnest(${requests.map((request) => request.key)}::text[],
                    ${requests.map((request) => request.windowMs)}::float8[]) as r(key, window_ms)
       group by r.key
    )
    insert into ratelimit.counters as c (key, hits, reset_at)
    select w.key, w.hits, now() + w.window_ms * interval '1 millisecond' from wanted w order by w.key
    on conflict (key) do update set
      hits = case when c.reset_at <= now() then excluded.hits else c.hits + excluded.hits end,
      reset_at = case when c.reset_at <= now() then excluded.reset_at else c.reset_at end
    returning c.key, c.hits::float8 as hits, greatest(0, ceil(extract(epoch from c.reset_at - now()) * 1000))::float8 as ttl_ms`.execute(
    db,
  );
  const counted = new Map(rows.map((row) => [row.key, row]));
  const asked = new Map<string, number>();
  for (const request of requests) asked.set(request.key, (asked.get(request.key) ?? 0) + 1);
  // The n requests of a key take the window's last n counts, in the order they came.
  const answered = new Map<string, number>();
  return requests.map((request): Settled<RequestCount> => {
    const row = counted.get(request.key);
    if (!row) return { ok: false, error: new Error('rate-limit upsert returned no row') };
    const turn = (answered.get(request.key) ?? 0) + 1;
    answered.set(request.key, turn);
    return { ok: true, value: { current: row.hits - (asked.get(request.key) ?? 1) + turn, ttl: row.ttl_ms } };
  });
}

/** Deletes up to SWEEP_BATCH_ROWS expired counters; returns how many. */
export async function sweepExpired(db: Kysely<unknown>): Promise<number> {
  // SKIP LOCKED: two processes sweeping at once split the rows instead of waiting on each other.
  const result = await sql`
    delete from ratelimit.counters where key in (
      select key from ratelimit.counters where reset_at < now() order by reset_at limit ${SWEEP_BATCH_ROWS} for update skip locked)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}

function createSweeper(db: Kysely<unknown>): { maybeSweep(): void; idle(): Promise<void> } {
  let lastSweepMs = 0;
  let running: Promise<void> | null = null;
  return {
    maybeSweep() {
      const now = Date.now();
      if (running || now - lastSweepMs < SWEEP_INTERVAL_MS) return;
      lastSweepMs = now;
      // Not awaited by the request that triggered it; a failed sweep is retried next interval.
      running = sweepExpired(db)
        .then(
          (deleted) => {
            // A full batch: more rows are waiting, so the next counted request sweeps again.
            if (deleted >= SWEEP_BATCH_ROWS) lastSweepMs = 0;
          },
          () => undefined,
        )
        .finally(() => {
          running = null;
        });
    },
    idle: async () => {
      await running;
    },
  };
}

/** The store's failure as the API's 503, with the database's error kept for the log. */
function unavailable(error: unknown): ApiError {
  return Object.assign(new ApiError('database_unavailable'), { cause: error });
}
