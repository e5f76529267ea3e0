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
 * count, as if they had come one after another. A signed-in request under the shared limit is
 * counted by `countSignedIn` instead: its user is read in the same statement, which picks the
 * budget (the account's, or the address's when the session is over), and the plugin's `incr`
 * then answers that count.
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
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { accountsQuery, toAccountSummary, type AccountRow, type AccountSummary } from '../../identity/index.ts';
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
  /**
   * Reads the user of a signed-in request and counts the request in the same statement
   * (countSignedInRequests), under the shared limit. `key` is the plugin's key for it: the
   * budget the request went to (`read:<id>`, `account:<id>` or `ip:<address>`, which sets its
   * limit) and a ticket, which the store's `incr` answers with this count instead of counting
   * again. A failed count is the API's 503.
   */
  countSignedIn(request: SignedInRequest): Promise<{ key: string; account: AccountSummary | undefined }>;
  /** Resolves when no sweep is running (call before the database closes). */
  idle(): Promise<void>;
}

/** Between a budget and the ticket of a request countSignedIn has counted already (never in a client's key). */
const TICKET = '#counted-';

export function createPostgresRateLimitStore(db: Kysely<unknown>): RateLimitStoreHandle {
  const sweeper = createSweeper(db);
  const count = createBatcher(READ_BATCHING, (requests: readonly CountedRequest[]) => countRequests(db, requests));
  const countWithSession = createBatcher(READ_BATCHING, (requests: readonly SignedInRequest[]) =>
    countSignedInRequests(db, requests),
  );
  // Counts made by countSignedIn, by ticketed key, until the plugin's incr asks for them.
  const precounted = new Map<string, RequestCount>();
  let tickets = 0;
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly scope: string;
    constructor(_options?: FastifyRateLimitOptions, scope = SHARED_SCOPE) {
      this.scope = scope;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      sweeper.maybeSweep();
      const counted = precounted.get(key);
      if (counted) {
        precounted.delete(key);
        callback(null, counted);
        return;
      }
      count({ key: `${this.scope}|${key}`, windowMs: timeWindow }).then(
        (result) => callback(null, result),
        (error: unknown) => callback(unavailable(error)),
      );
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
  return {
    Store: PostgresRateLimitStore,
    async countSignedIn(request) {
      let counted: SignedInCount;
      try {
        counted = await countWithSession(request);
      } catch (error) {
        throw unavailable(error);
      }
      tickets += 1;
      const key = `${counted.countedKey}${TICKET}${tickets}`;
      precounted.set(key, counted.count);
      return { key, account: counted.account };
    },
    idle: () => sweeper.idle(),
  };
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
  const { rows } = await sql<CounterRow>`
    with wanted as (
      select r.key, count(*) as hits, max(r.window_ms) as window_ms
        from unnest(${requests.map((request) => request.key)}::text[],
                    ${requests.map((request) => request.windowMs)}::float8[]) as r(key, window_ms)
       group by r.key
    )
    ${counterUpsert(sql`wanted`)}`.execute(db);
  return countsInTurn(
    requests.map((request) => request.key),
    new Map(rows.map((row) => [row.key, row])),
  );
}

interface CounterRow {
  key: string;
  hits: number;
  ttl_ms: number;
}

/**
 * The upsert of the counts in `wanted` (key, hits, window_ms; one row per key), in key order,
 * so two processes' batches lock shared keys in the same order; returns each key's count in
 * its current window and the milliseconds left.
 */
function counterUpsert(wanted: RawBuilder<unknown>): RawBuilder<CounterRow> {
  return sql<CounterRow>`
    insert into ratelimit.counters as c (key, hits, reset_at)
    select w.key, w.hits, now() + w.window_ms * interval '1 millisecond' from ${wanted} w order by w.key
    on conflict (key) do update set
      hits = case when c.reset_at <= now() then excluded.hits else c.hits + excluded.hits end,
      reset_at = case when c.reset_at <= now() then excluded.reset_at else c.reset_at end
    returning c.key, c.hits::float8 as hits, greatest(0, ceil(extract(epoch from c.reset_at - now()) * 1000))::float8 as ttl_ms`;
}

/**
 * Each request's count, given the key each was counted under (in the order they came) and
 * the keys' counts after the batch: the n requests of a key take the window's last n counts,
 * in that order.
 */
function countsInTurn(keys: readonly string[], counted: ReadonlyMap<string, CounterRow>): Settled<RequestCount>[] {
  const asked = new Map<string, number>();
  for (const key of keys) asked.set(key, (asked.get(key) ?? 0) + 1);
  const answered = new Map<string, number>();
  return keys.map((key): Settled<RequestCount> => {
    const row = counted.get(key);
    if (!row) return { ok: false, error: new Error('rate-limit upsert returned no row') };
    const turn = (answered.get(key) ?? 0) + 1;
    answered.set(key, turn);
    return { ok: true, value: { current: row.hits - (asked.get(key) ?? 1) + turn, ttl: row.ttl_ms } };
  });
}

/** A request on a signed-in route whose token's claims hold, to be counted with its session read. */
export interface SignedInRequest {
  /** The token's subject and session version. */
  userId: string;
  sessionVersion: number;
  /** Its budget if the session is live (`read:<id>` or `account:<id>`), and if not (`ip:<address>`). */
  accountKey: string;
  addressKey: string;
  windowMs: number;
}

export interface SignedInCount {
  /** The token's user as read with the count; undefined if there is none. */
  account: AccountSummary | undefined;
  count: RequestCount;
  /** accountKey or addressKey: the budget the request was counted in. */
  countedKey: string;
}

/**
 * A batch of signed-in requests: their users read and the requests counted in one statement,
 * one round trip where the session read and the count were two, one after the other, on
 * every signed-in request (issue 40). A request is counted under its account exactly when its
 * session is live - the user exists, is verified, and still has the token's session version
 * (the session check's rule, `judgeSession` in authenticate.ts) - and otherwise under its
 * address, so a leaked old token never spends its owner's budget.
 */
export async function countSignedInRequests(
  db: Kysely<unknown>,
  requests: readonly SignedInRequest[],
): Promise<Settled<SignedInCount>[]> {
  const scoped = (key: string) => `${SHARED_SCOPE}|${key}`;
  const { rows } = await sql<
    AccountRow & { ord: number; counted_key: string; hits: number; ttl_ms: number; account_found: boolean }
  >`
    with accounts as materialized (${accountsQuery(
      db,
      requests.map((request) => request.userId),
    )}),
    -- Session versions as bigint: a batch fails as a whole, so no request's figure may overflow it.
    asked as materialized (
      select r.ord, r.user_id, r.window_ms,
             case when a.is_verified and a.session_version = r.session_version then r.account_key else r.address_key end as key
        from unnest(${requests.map((_, index) => index)}::int[],
                    ${requests.map((request) => request.userId)}::text[],
                    ${requests.map((request) => request.sessionVersion)}::bigint[],
                    ${requests.map((request) => scoped(request.accountKey))}::text[],
                    ${requests.map((request) => scoped(request.addressKey))}::text[],
                    ${requests.map((request) => request.windowMs)}::float8[])
             as r(ord, user_id, session_version, account_key, address_key, window_ms)
        left join accounts a on a.id = r.user_id
    ),
    wanted as (select key, count(*) as hits, max(window_ms) as window_ms from asked group by key),
    counted as (${counterUpsert(sql`wanted`)})
    select r.ord, r.key as counted_key, c.hits, c.ttl_ms, a.id is not null as account_found, a.*
      from asked r
      join counted c on c.key = r.key
      left join accounts a on a.id = r.user_id
     order by r.ord`.execute(db);
  const byOrder = new Map(rows.map((row) => [row.ord, row]));
  const keys = requests.map((_, index) => byOrder.get(index)?.counted_key ?? '');
  const counts = countsInTurn(
    keys,
    new Map(rows.map((row) => [row.counted_key, { key: row.counted_key, hits: row.hits, ttl_ms: row.ttl_ms }])),
  );
  return requests.map((_, index): Settled<SignedInCount> => {
    const row = byOrder.get(index);
    const count = counts[index];
    if (!row || !count?.ok)
      return { ok: false, error: count?.ok === false ? count.error : new Error('rate-limit count returned no row') };
    return {
      ok: true,
      value: {
        account: row.account_found ? toAccountSummary(row) : undefined,
        count: count.value,
        countedKey: row.counted_key.slice(SHARED_SCOPE.length + 1),
      },
    };
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
