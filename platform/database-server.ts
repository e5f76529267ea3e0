/**
 * Where the database lives and who connects to it: DATABASE_URL (the runtime role) and,
 * for migrations, DATABASE_OWNER_URL when set; otherwise an embedded Postgres whose data is
 * kept under the data directory (var/ by default) and which stops with the process. On the
 * embedded server migrations run as its superuser and the app as `wallet_app`
 * (platform/embedded-login.ts), a member of wallet_runtime, made ready at every start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from './config.ts';
import { createDatabase, withClient } from './database.ts';
import { ensureRuntimeLogin, ensureRuntimeRole, loginOf } from './runtime-role.ts';
import {
  EMBEDDED_DATABASE,
  EMBEDDED_SUPERUSER,
  embeddedRuntimePassword,
  embeddedRuntimeUrl,
  embeddedSocketDir,
  embeddedSuperuserPassword,
  embeddedUrl,
} from './embedded-login.ts';
import type { Logger } from './logger.ts';

export interface DatabaseServer {
  /** What the app connects as: the runtime role. */
  url: string;
  /** What migrations connect as, when this process may migrate: DATABASE_OWNER_URL, or the embedded superuser. */
  ownerUrl: string | undefined;
  embedded: boolean;
  stop(): Promise<void>;
}

export interface DatabaseServerOptions {
  databaseUrl?: string | undefined;
  databaseOwnerUrl?: string | undefined;
  dataDir: string;
  /** EMBEDDED_POSTGRES_PORT; absent (operator commands), its default. */
  embeddedPort?: number | undefined;
  /** For the embedded server's errors. */
  log?: Logger | undefined;
}

export async function openDatabaseServer(options: DatabaseServerOptions): Promise<DatabaseServer> {
  if (options.databaseUrl)
    return { url: options.databaseUrl, ownerUrl: options.databaseOwnerUrl, embedded: false, stop: async () => {} };
  // Only one process may run the embedded server on a data directory: a command run beside
  // `npm start` (admin:create, ledger, backup) uses the server that is already there.
  const running = runningEmbeddedPort(options.dataDir);
  if (running !== undefined) return runningEmbeddedServer(options.dataDir, running);
  const port = options.embeddedPort ?? CONFIG_DEFAULTS.EMBEDDED_POSTGRES_PORT;
  // Imported only when needed: the embedded-postgres package installs SIGINT/SIGTERM handlers
  // on import that exit the process (code 143 on SIGTERM) while the server's graceful shutdown
  // is still draining - with DATABASE_URL (every deployment) nothing may cut that short.
  const { startEmbeddedPostgres } = await import('../platform/embedded-postgres.ts');
  const server = await startEmbeddedPostgres({
    dataDir: join(options.dataDir, 'postgres'),
    port,
    persistent: true,
    log: options.log,
    tcp: false,
  });
  try {
    await ensureDatabase(server.url('postgres'), EMBEDDED_DATABASE);
    const ownerUrl = server.url(EMBEDDED_DATABASE);
    const url = embeddedRuntimeUrl(port, await embeddedRuntimePassword(options.dataDir), options.dataDir);
    await prepareEmbeddedLogin(ownerUrl, url);
    return { url, ownerUrl, embedded: true, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The port of a live embedded server on this data directory (its postmaster.pid), if one is running. */
export function runningEmbeddedPort(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return port;
  } catch (error) {
    // EPERM: alive but owned by another user (the embedded server runs as `postgres`).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? port : undefined;
  }
}

/** The embedded server another process started on this data directory; stopping is that process's. */
async function runningEmbeddedServer(dataDir: string, port: number): Promise<DatabaseServer> {
  const socket = { port, socketDir: embeddedSocketDir(dataDir) };
  const ownerUrl = embeddedUrl(socket, EMBEDDED_SUPERUSER, await embeddedSuperuserPassword(dataDir), EMBEDDED_DATABASE);
  const url = embeddedRuntimeUrl(port, await embeddedRuntimePassword(dataDir), dataDir);
  return { url, ownerUrl, embedded: true, stop: async () => {} };
}

/**
 * The login exists before any migration runs, so a command that only reads (the CLI on a
 * fresh data directory) can connect; the password is set every time, so the file decides.
 */
async function prepareEmbeddedLogin(ownerUrl: string, runtimeUrl: string): Promise<void> {
  const db = createDatabase<unknown>({
    connectionString: ownerUrl,
    maxConnections: 1,
    applicationName: 'wallet-setup',
  });
  try {
    await ensureRuntimeRole(db);
    await ensureRuntimeLogin(db, loginOf(runtimeUrl), { resetPassword: true });
  } finally {
    await db.destroy();
  }
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  });
}
