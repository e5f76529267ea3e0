/**
 * `npm start`: API, workers and the built web app in one process on :3000. With no
 * DATABASE_URL the database is an embedded Postgres whose data lives under var/.
 * RUN_WORKERS=false runs the API alone (workers then run with `npm run worker`).
 */
import { fileURLToPath } from 'node:url';
import { appConfigFrom, buildApp } from '../api/app.ts';
import { startIdentity } from '../identity/index.ts';
import { loadConfig } from '../platform/config.ts';
import { exitIfUnsafeForProduction, exitRefused } from '../platform/production.ts';
import { tablesView } from '../platform/database.ts';
import { createCheckpointWaiter, readWalletBalance, startProjectionWorkers, type ReadTables } from '../projections/index.ts';
import { createCardProvider } from '../providers/card/index.ts';
import { startSystem } from '../runtime/system.ts';

const WEB_DIST_DIR = fileURLToPath(new URL('../web/dist/', import.meta.url));

const config = loadConfig();
const role = config.RUN_WORKERS ? 'all' : 'api';
exitIfUnsafeForProduction(config, role);
const system = await startSystem(config, { role });
const identity = await startIdentity({ config, db: system.db, boss: system.boss, ledger: system.ledger, role, log: (line) => console.log(line) }).catch(async (error: unknown) => {
  // Production mode without a first admin's password: stop cleanly, then say why.
  await system.stop();
  return exitRefused(error);
});
const stopWorkers = config.RUN_WORKERS ? await startProjectionWorkers({ db: system.db, connectionString: system.databaseUrl, boss: system.boss }) : async () => {};
const reads = tablesView<ReadTables>(system.db);
const checkpoints = createCheckpointWaiter({ connectionString: system.databaseUrl });
const app = await buildApp({
  config: { ...appConfigFrom(config, { jwtSecret: identity.jwtSecret, pinPepper: identity.pinPepper }), webDistDir: WEB_DIST_DIR },
  db: system.db,
  pool: system.pool,
  checkpoints,
  boss: system.boss,
  ledger: system.ledger,
  card: createCardProvider(config),
  balances: { ofAccount: (accountId) => readWalletBalance(reads, accountId) },
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await stopWorkers();
  await checkpoints.close();
  identity.stop();
  await system.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Wallet is running at ${config.PUBLIC_URL} (database: ${config.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres in var/postgres'}; workers: ${config.RUN_WORKERS ? 'in this process' : 'separate'})`);
