/**
 * `npm run worker`: projection workers alone, no HTTP. Run as many as you like next to the
 * API processes (`npm start` runs them in-process too); the projector's checkpoint lock
 * keeps one active projector per projection.
 */
import { loadConfig } from '../platform/config.ts';
import { startSystem } from '../runtime/system.ts';
import { startProjectionWorkers } from '../runtime/workers.ts';

const config = loadConfig();
const system = await startSystem(config, { role: 'worker' });
const stopWorkers = await startProjectionWorkers({ db: system.db, boss: system.boss });
console.log(`Projection workers running (database: ${config.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres in var/postgres'})`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping workers`);
  await stopWorkers();
  await system.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
