/**
 * `npm run migrate`: applies pending migrations (forward-only), creates job queues and
 * (re)applies the runtime role's grants, as the owner: DATABASE_OWNER_URL, else DATABASE_URL
 * (a single-role setup), else the embedded superuser. When the app connects as another user
 * (DATABASE_URL beside DATABASE_OWNER_URL, or the embedded `wallet_app`), that login is made
 * a member of wallet_runtime.
 */
import { loadConfig } from '../platform/config.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { openDatabaseServer } from '../platform/database-server.ts';
import { allQueues } from '../runtime/queues.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
const server = await openDatabaseServer({ databaseUrl: config.DATABASE_URL, databaseOwnerUrl: config.DATABASE_OWNER_URL, dataDir: config.DATA_DIR, embeddedPort: config.EMBEDDED_POSTGRES_PORT });
try {
  const report = await migrateDatabase(server.ownerUrl ?? server.url, allQueues, { runtimeUrl: server.url });
  console.log(report.applied.length ? `Applied: ${report.applied.join(', ')}` : 'Database is up to date.');
} finally {
  await server.stop();
}
