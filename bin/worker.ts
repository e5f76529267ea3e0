/**
 * `npm run worker`: projection and e-mail workers alone, no HTTP. Run as many as you like next to the
 * API processes (`npm start` runs them in-process too); the projector's checkpoint lock
 * keeps one active projector per projection.
 */
import { startIdentity } from '../identity/index.ts';
import { loadConfig } from '../platform/config.ts';
import { startSystem } from '../runtime/system.ts';
import { startProjectionWorkers } from '../runtime/workers.ts';

const config = loadConfig();
const system = await startSystem(config, { role: 'worker' });
const stopWorkers = await startProjectionWorkers({ db: system.db, connectionString: system.databaseUrl, boss: system.boss });
// The mail worker sends what identity enqueued (codes, "account verified").
const identity = await startIdentity({ config, db: system.db, boss: system.boss, ledger: system.ledger, role: 'worker', log: (line) => console.log(line) });
console.log(`Projection and mail workers running (database: ${config.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres in var/postgres'})`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping workers`);
  await stopWorkers();
  identity.stop();
  await system.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
