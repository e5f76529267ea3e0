/**
 * One Postgres server per test run (embedded, or the server of DATABASE_URL), one migrated
 * template database, and every test file gets its own copy of it (test/database.ts), so
 * files run in parallel without seeing each other's rows. The template is migrated as the
 * server's superuser (the owner), and the migration run makes the test login a member of
 * wallet_runtime: test files connect as that runtime login unless they ask for the owner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { withClient } from '../platform/database.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from './logins.ts';
import { startXminHolder } from './xmin-holder.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    /** The server of adminDatabaseUrl, logged in as the test runtime login. */
    runtimeDatabaseUrl: string;
    templateDatabase: string;
  }
}

/**
 * Runs once per project (vitest.config.ts): each gets its own embedded cluster, so the files
 * of one project never share an xmin horizon with the other's. Returns its own teardown.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  let embedded: EmbeddedServer | undefined;
  let dataRoot: string | undefined;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    dataRoot = mkdtempSync(join(tmpdir(), 'wallet-test-'));
    embedded = await startEmbeddedPostgres({ dataDir: join(dataRoot, 'data'), persistent: false, fast: true });
    adminUrl = embedded.url('postgres');
  }
  // One template per project: under DATABASE_URL both projects share the server.
  const template = `wallet_tpl_${project.name}_${process.pid}`;
  await withClient(adminUrl, async (client) => {
    await client.query(`drop database if exists ${template}`);
    await client.query(`create database ${template}`);
  });
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  const runtimeUrl = withLogin(templateUrl.toString(), TEST_RUNTIME_LOGIN);
  await migrateDatabase(templateUrl.toString(), installation, { runtimeUrl, resetRuntimePassword: true });
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('runtimeDatabaseUrl', withLogin(adminUrl, TEST_RUNTIME_LOGIN));
  project.provide('templateDatabase', template);
  // The adversary of the independence rule, for the files that must not depend on the horizon.
  const holdMs = Number(process.env.TEST_XMIN_HOLD_MS ?? 0);
  const holder = holdMs > 0 && project.name !== 'horizon' ? await startXminHolder(adminUrl, holdMs) : undefined;

  return async () => {
    if (holder) {
      console.log(`xmin holder: held the horizon back ${holder.holds()} times for ${holdMs} ms`);
      await holder.stop();
    }
    if (embedded) await embedded.stop();
    if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
  };
}
