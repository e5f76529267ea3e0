/**
 * `npm run worker`: projection and e-mail workers alone. Run as many as you like next to the
 * API processes (`npm start` runs them in-process too); the projector's checkpoint lock
 * keeps one active projector per projection. Its only HTTP is the health endpoint
 * (GET /health on WORKER_HEALTH_PORT, when set) that container healthchecks probe.
 */
import { sql } from 'kysely';
import { startIdentity } from '../identity/index.ts';
import { loadConfig } from '../platform/config.ts';
import { startHealthServer, type HealthServer } from '../platform/health-server.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { startSystem } from '../runtime/system.ts';
import { startProjectionWorkers } from '../projections/index.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'worker');
const system = await startSystem(config, { role: 'worker' });
const stopWorkers = await startProjectionWorkers({ db: system.db, connectionString: system.databaseUrl, boss: system.boss });
// The mail worker sends what identity enqueued (codes, "account verified").
const identity = await startIdentity({ config, db: system.db, boss: system.boss, ledger: system.ledger, role: 'worker', log: (line) => console.log(line) });
// Healthy while its database answers: without it no projection or mail job can make progress.
const health: HealthServer | undefined =
  config.WORKER_HEALTH_PORT === undefined
    ? undefined
    : await startHealthServer({ port: config.WORKER_HEALTH_PORT, host: config.HOST, check: async () => void (await sql`select 1`.execute(system.db)) });
console.log(
  `Projection and mail workers running (database: ${config.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres in var/postgres'}${health ? `; health: http://${config.HOST}:${health.port}/health` : ''})`,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping workers`);
  await health?.close();
  await stopWorkers();
  identity.stop();
  await system.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
