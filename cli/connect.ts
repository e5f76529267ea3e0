/**
 * Which database the CLI talks to, always as the runtime role (the CLI needs no more: replay's
 * DDL runs in the owner's replay.* functions): DATABASE_URL when set; otherwise the embedded
 * Postgres under the data directory, as its `wallet_app` login. Only one process may run the
 * embedded server on its data directory, so when `npm start` (or a worker) already runs it,
 * the CLI connects to that server (found through its postmaster.pid) instead of starting a
 * second one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabaseServer } from '../platform/database-server.ts';
import { embeddedRuntimePassword, embeddedRuntimeUrl } from '../platform/embedded-login.ts';

export interface DatabaseTarget {
  url: string;
  description: string;
  stop(): Promise<void>;
}

/** The port of a live embedded server on this data directory, if one is running. */
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

export async function openDatabaseTarget(env: {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}): Promise<DatabaseTarget> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, description: 'DATABASE_URL', stop: async () => {} };
  const port = runningEmbeddedPort(env.DATA_DIR);
  if (port) {
    const url = embeddedRuntimeUrl(port, await embeddedRuntimePassword(env.DATA_DIR));
    return { url, description: `running embedded Postgres on port ${port}`, stop: async () => {} };
  }
  try {
    const server = await openDatabaseServer({ dataDir: env.DATA_DIR });
    return {
      url: server.url,
      description: `embedded Postgres in ${env.DATA_DIR}/postgres (started for this command)`,
      stop: () => server.stop(),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Could not start the embedded Postgres in ${env.DATA_DIR}/postgres: ${message}\n` +
        `If \`npm start\` or \`npm run worker\` is running, it owns that server: set DATABASE_URL (e.g. postgres://wallet_app:<password in ${env.DATA_DIR}/database-password>@127.0.0.1:54329/wallet).`,
      { cause: error },
    );
  }
}
