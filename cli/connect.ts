/**
 * Which database the CLI talks to, always as the runtime role (the CLI needs no more: replay's
 * DDL runs in the owner's replay.* functions): DATABASE_URL when set; otherwise the embedded
 * Postgres under the data directory, as its `wallet_app` login - the server `npm start` (or a
 * worker) already runs there, found through its postmaster.pid, or one started for this command.
 */
import { openDatabaseServer, runningEmbeddedPort } from '../platform/database-server.ts';

export interface DatabaseTarget {
  url: string;
  description: string;
  stop(): Promise<void>;
}

export async function openDatabaseTarget(env: {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}): Promise<DatabaseTarget> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, description: 'DATABASE_URL', stop: async () => {} };
  const port = runningEmbeddedPort(env.DATA_DIR);
  try {
    const server = await openDatabaseServer({ dataDir: env.DATA_DIR });
    const description =
      port === undefined
        ? `embedded Postgres in ${env.DATA_DIR}/postgres (started for this command)`
        : `running embedded Postgres on port ${port}`;
    return { url: server.url, description, stop: () => server.stop() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not reach the embedded Postgres in ${env.DATA_DIR}/postgres: ${message}`, { cause: error });
  }
}
