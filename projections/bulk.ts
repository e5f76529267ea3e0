/**
 * Set-based writes for projectors: a batch's rows travel as one jsonb array and are
 * written by one statement, so a batch of hundreds of events costs a handful of round trips.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AnyTransaction } from './event-batch.ts';

/** Column name and its SQL type, in table order. */
export type Columns = readonly (readonly [string, string])[];

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

export function table(schema: string, name: string): RawBuilder<unknown> {
  return sql`${sql.id(schema, name)}`;
}

function recordset(columns: Columns, rows: readonly object[]): RawBuilder<unknown> {
  const definitions = sql.raw(columns.map(([name, type]) => `"${name}" ${type}`).join(', '));
  return sql`jsonb_to_recordset(${toJson(rows)}::jsonb) as r(${definitions})`;
}

function columnList(columns: Columns, prefix = ''): RawBuilder<unknown> {
  return sql.raw(columns.map(([name]) => `${prefix}"${name}"`).join(', '));
}

/** Plain insert: a duplicate key is a bug (an event applied twice) and must fail loudly. */
export async function insertRows(
  trx: AnyTransaction,
  target: RawBuilder<unknown>,
  columns: Columns,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into ${target} (${columnList(columns)}) select ${columnList(columns, 'r.')} from ${recordset(columns, rows)}`.execute(
    trx,
  );
}

/** Insert or replace whole rows by key (for rows whose new state the batch computed in full). */
export async function upsertRows(
  trx: AnyTransaction,
  target: RawBuilder<unknown>,
  columns: Columns,
  key: readonly string[],
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const updates = sql.raw(
    columns
      .filter(([name]) => !key.includes(name))
      .map(([name]) => `"${name}" = excluded."${name}"`)
      .join(', '),
  );
  const conflict = sql.raw(key.map((name) => `"${name}"`).join(', '));
  await sql`insert into ${target} (${columnList(columns)}) select ${columnList(columns, 'r.')} from ${recordset(columns, rows)}
    on conflict (${conflict}) do update set ${updates}`.execute(trx);
}

/** Insert rows whose key may already exist, keeping the first (e.g. a funding account's directory entry). */
export async function insertMissingRows(
  trx: AnyTransaction,
  target: RawBuilder<unknown>,
  columns: Columns,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into ${target} (${columnList(columns)}) select ${columnList(columns, 'r.')} from ${recordset(columns, rows)} on conflict do nothing`.execute(
    trx,
  );
}

/** Update existing rows matched on `key` with the other columns given. */
export async function updateRows(
  trx: AnyTransaction,
  target: RawBuilder<unknown>,
  columns: Columns,
  key: readonly string[],
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const updates = sql.raw(
    columns
      .filter(([name]) => !key.includes(name))
      .map(([name]) => `"${name}" = r."${name}"`)
      .join(', '),
  );
  const match = sql.raw(key.map((name) => `t."${name}" = r."${name}"`).join(' and '));
  await sql`update ${target} as t set ${updates} from ${recordset(columns, rows)} where ${match}`.execute(trx);
}

/** Add each row's `counter` to the stored row with the same key, or insert the row (running counts). */
export async function addToCounters(
  trx: AnyTransaction,
  target: RawBuilder<unknown>,
  columns: Columns,
  key: readonly string[],
  counter: string,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const conflict = sql.raw(key.map((name) => `"${name}"`).join(', '));
  await sql`insert into ${target} as t (${columnList(columns)}) select ${columnList(columns, 'r.')} from ${recordset(columns, rows)}
    on conflict (${conflict}) do update set ${sql.id(counter)} = t.${sql.id(counter)} + excluded.${sql.id(counter)}`.execute(
    trx,
  );
}
