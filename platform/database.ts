/**
 * Database access: a Kysely instance over a pg pool, with bigint columns read as bigint
 * so paise never pass through a float; and the one-shot client for a statement or two.
 */
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { fallbackLogger, type Logger } from './logger.ts';

// int8 (bigint) -> BigInt. Money is integer paise; a JS number would silently round past 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => BigInt(value));

export interface DatabaseOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
  /** Where a lost connection is reported; a process passes its own logger. */
  log?: Logger;
  /** Give up connecting after this long (default: wait as long as the network does). */
  connectTimeoutMs?: number;
  /** Postgres cancels any statement past this (`statement_timeout`); default: none. */
  statementTimeoutMs?: number;
}

export function createPool(options: DatabaseOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'wallet',
    ...(options.connectTimeoutMs === undefined ? {} : { connectionTimeoutMillis: options.connectTimeoutMs }),
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
  });
  // An idle connection dropped by the server (restart, shutdown) must not crash the process;
  // the next query gets a fresh connection or a clear error.
  const log = (options.log ?? fallbackLogger).child({ component: 'database' });
  pool.on('error', (error) => log.error({ err: withoutClient(error) }, 'idle connection lost'));
  // The pool listens only while a connection is idle in it. A checked-out connection with no
  // query in flight (a transaction awaiting bcrypt, a projector between statements) that the
  // server terminates emits 'error' with no listener, and that kills the process. Listen on
  // every connection; its next query fails (503) and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', (error) => log.error({ err: withoutClient(error) }, 'connection lost'));
  });
  return pool;
}

/**
 * pg hangs the whole client on a pool error (`error.client`): its connection parameters, its
 * cancel key and every type parser. The log gets the error alone.
 */
function withoutClient(error: Error): Error {
  if (!('client' in error)) return error;
  const copy = Object.assign(new Error(error.message), error);
  copy.name = error.name;
  copy.stack = error.stack;
  delete (copy as { client?: unknown }).client;
  return copy;
}

/**
 * A streaming replica's pool for reads (READ_DATABASE_URL): it gives up connecting after
 * 1 s and cancels a statement after 2 s, so a replica that is down or stuck (a query waiting
 * on a lock the standby replays from the primary, a hung server) sends the read to the
 * primary instead of holding it; connections open lazily, so a replica down at start-up is no
 * refusal.
 */
export function openReadReplica(url: string, options: { applicationName: string; log?: Logger }): Kysely<unknown> {
  return createDatabase<unknown>({
    connectionString: url,
    maxConnections: 20,
    connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: REPLICA_STATEMENT_TIMEOUT_MS,
    ...options,
  });
}

export const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
/** Far above any read's time on a healthy replica (the slowest, a history search, takes tens of ms under load). */
export const REPLICA_STATEMENT_TIMEOUT_MS = 2_000;

export function createDatabase<Tables>(options: DatabaseOptions): Kysely<Tables> {
  return openDatabase<Tables>(options).db;
}

/** The Kysely instance and its pool: the pool is needed for LISTEN/NOTIFY (read-your-writes). */
export function openDatabase<Tables>(options: DatabaseOptions): { db: Kysely<Tables>; pool: pg.Pool } {
  const pool = createPool(options);
  return { db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }), pool };
}

/**
 * Each module declares only its own tables (LedgerTables, ReadTables, ...). Kysely's types
 * are invariant in the table map, so the composition root hands each module a view of
 * the one shared pool typed with that module's tables. No query changes: only its type.
 */
export function tablesView<Tables>(db: Kysely<unknown> | Transaction<unknown>): Kysely<Tables> {
  return db as unknown as Kysely<Tables>;
}

export function transactionView<Tables>(trx: Transaction<unknown>): Transaction<Tables> {
  return trx as unknown as Transaction<Tables>;
}

/**
 * Runs `work` (on the pool's other connections) while an advisory lock on `key` is held by a
 * transaction that does nothing else and stays open until `work` ends: mutual exclusion
 * across processes that also holds behind a transaction-mode pooler (PgBouncer), where a
 * session lock (pg_advisory_lock) would be taken on one server connection and released - or
 * not - on another. The holding transaction has no xid, so it holds back no snapshot xmin;
 * a process that dies drops its connection and the lock with it. `wait: false` gives up at
 * once when another holder has it. Needs a pool of two connections or more.
 */
export async function withAdvisoryLock<Result>(
  db: Kysely<unknown>,
  key: string,
  options: { wait: boolean },
  work: () => Promise<Result>,
): Promise<{ locked: true; value: Result } | { locked: false }> {
  return db.transaction().execute(async (trx) => {
    if (options.wait) {
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    } else {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(hashtext(${key})) as locked`.execute(trx);
      if (!rows[0]?.locked) return { locked: false as const };
    }
    return { locked: true as const, value: await work() };
  });
}

/**
 * A connection for a statement or two, closed whatever happens: CREATE / DROP DATABASE on a
 * server's maintenance database and other one-shot setup steps, where a pool is not worth
 * opening. Code that holds a connection open on purpose (LISTEN, a transaction kept open
 * by a test) keeps its own client.
 */
export async function withClient<Result>(
  connection: string | pg.ClientConfig,
  use: (client: pg.Client) => Promise<Result>,
): Promise<Result> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
