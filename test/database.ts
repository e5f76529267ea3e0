/**
 * A fresh database for one test file, copied from the migrated template (~20 ms).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase } from '../platform/database.ts';

export interface TestDatabase<Tables> {
  url: string;
  name: string;
  db: Kysely<Tables>;
  pool: pg.Pool;
  drop(): Promise<void>;
}

export async function createTestDatabase<Tables>(options: { maxConnections?: number } = {}): Promise<TestDatabase<Tables>> {
  const adminUrl = inject('adminDatabaseUrl');
  const template = inject('templateDatabase');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${template} strategy file_copy`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { db, pool } = openDatabase<Tables>({ connectionString: url.toString(), maxConnections: options.maxConnections ?? 10, applicationName: 'wallet-test' });
  return {
    url: url.toString(),
    name,
    db,
    pool,
    drop: async () => {
      await db.destroy();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
