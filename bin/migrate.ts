/**
 * `npm run migrate`: applies pending migrations (forward-only) and creates job queues.
 */
import { loadConfig } from '../platform/config.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { exitIfUnsafeForProduction } from '../platform/production.ts';
import { openDatabaseServer } from '../runtime/database-server.ts';
import { allQueues } from '../runtime/queues.ts';

const config = loadConfig();
exitIfUnsafeForProduction(config, 'cli');
const server = await openDatabaseServer({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, embeddedPort: config.EMBEDDED_POSTGRES_PORT });
try {
  const report = await migrateDatabase(server.url, allQueues);
  console.log(report.applied.length ? `Applied: ${report.applied.join(', ')}` : 'Database is up to date.');
} finally {
  await server.stop();
}
