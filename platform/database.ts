/**
 * Database access: a Kysely instance over a pg pool, with bigint columns read as bigint
 * so paise never pass through a float.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

// int8 (bigint) -> BigInt. Money is integer paise; a JS number would silently round past 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => BigInt(value));

export interface DatabaseOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
}

export function createPool(options: DatabaseOptions): pg.Pool {
  return new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'wallet',
  });
}

export function createDatabase<Tables>(options: DatabaseOptions): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new PostgresDialect({ pool: createPool(options) }) });
}
