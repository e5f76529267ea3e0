/**
 * `npm start`: API, workers and the built web app in one process on :3000. With no
 * DATABASE_URL the database is an embedded Postgres whose data lives under var/.
 */
import { buildApp } from '../api/app.ts';
import { loadConfig } from '../platform/config.ts';
import { startSystem } from '../runtime/system.ts';

const config = loadConfig();
const system = await startSystem(config, { role: 'all' });
const app = await buildApp({
  config: { publicUrl: config.PUBLIC_URL, corsOrigins: [], logLevel: config.LOG_LEVEL },
  db: system.db,
  boss: system.boss,
  ledger: system.ledger,
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await system.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Wallet is running at ${config.PUBLIC_URL} (database: ${system.databaseUrl.startsWith('postgres://postgres:postgres@127.0.0.1:54329') ? 'embedded Postgres in var/postgres' : 'DATABASE_URL'})`);
