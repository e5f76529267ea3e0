/**
 * A fresh database for one test file, copied from the migrated template (cheap). Its `db`,
 * `pool` and `url` are the runtime role's (test/logins.ts), as the app's are, so every test
 * that goes through them shows the runtime's grants suffice. A test that must do what only
 * the owner may (raw SQL against the ledger's own defences, tampering with heads) asks for
 * `{ as: 'owner' }` or connects to `ownerUrl` for that statement.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, withClient } from '../platform/database.ts';

export interface TestDatabase<Tables> {
  /** What `db` and `pool` connect as: the runtime login unless the test asked for the owner. */
  url: string;
  /** The same database as the runtime login. */
  runtimeUrl: string;
  /** The same database as the owner (the server's superuser, who migrated the template). */
  ownerUrl: string;
  name: string;
  db: Kysely<Tables>;
  pool: pg.Pool;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  maxConnections?: number;
  as?: 'runtime' | 'owner';
}

export async function createTestDatabase<Tables>(options: TestDatabaseOptions = {}): Promise<TestDatabase<Tables>> {
  const adminUrl = inject('adminDatabaseUrl');
  const template = inject('templateDatabase');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name} template ${template} strategy file_copy`);
  const ownerUrl = inDatabase(adminUrl, name);
  const runtimeUrl = inDatabase(inject('runtimeDatabaseUrl'), name);
  const url = options.as === 'owner' ? ownerUrl : runtimeUrl;
  const { db, pool } = openDatabase<Tables>({
    connectionString: url,
    maxConnections: options.maxConnections ?? 10,
    applicationName: 'wallet-test',
  });
  return {
    url,
    runtimeUrl,
    ownerUrl,
    name,
    db,
    pool,
    drop: async () => {
      await db.destroy();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** The same server and login, another database. */
export function inDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement as the server's superuser on its maintenance database (databases, roles). */
export async function adminQuery(statement: string): Promise<void> {
  await withClient(inject('adminDatabaseUrl'), (client) => client.query(statement));
}

/** How many events the ledger holds: what a refused command must leave unchanged. */
export async function eventCount<Tables>(db: Kysely<Tables>): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ledger.events`.execute(db);
  return rows[0]?.n ?? 0;
}
