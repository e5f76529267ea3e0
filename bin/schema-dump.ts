/**
 * `npm run schema:dump`: migrates a fresh embedded database (a throwaway cluster) and writes
 * its schema to migrations/schema.sql (platform/schema-dump.ts says what is in it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withClient } from '../platform/database.ts';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { schemaFileText } from '../platform/schema-dump.ts';
import { installation } from '../runtime/installation.ts';

const SCHEMA_FILE = fileURLToPath(new URL('../migrations/schema.sql', import.meta.url));

const dataRoot = mkdtempSync(join(tmpdir(), 'wallet-schema-'));
const server = await startEmbeddedPostgres({ dataDir: join(dataRoot, 'data'), persistent: false, fast: true });
try {
  await withClient(server.url('postgres'), (client) => client.query('create database wallet_schema'));
  const url = server.url('wallet_schema');
  await migrateDatabase(url, installation);
  const text = await withClient(url, (client) => schemaFileText(client, installation.schemas));
  writeFileSync(SCHEMA_FILE, text);
  console.log(`wrote ${SCHEMA_FILE}`);
} finally {
  await server.stop();
  rmSync(dataRoot, { recursive: true, force: true });
}
