/**
 * Where a B1 row's WAL went: the bytes of the ledger-transfer runs by relation, split into
 * record data and full-page images, read back with `pg_walinspect` (a contrib module the
 * embedded server ships) over the runs' LSN ranges. The figure the issue sets a bound on is
 * the total (`walBytesPerTransfer`); this says which table or index writes it, and how much of
 * it is first touches of pages after a checkpoint - what grows with the ledger.
 */
import { sql, type Kysely } from 'kysely';

export interface WalRange {
  start: string;
  end: string;
}

export interface WalRelationShare {
  /** A table or index of the bench database; "(record headers)" for what no block carries. */
  relation: string;
  bytesPerTransfer: number;
  /** Of which full-page images (the first change of a page after a checkpoint, compressed if wal_compression is on). */
  fullPageImageBytesPerTransfer: number;
}

/** The largest shares, then one line for the rest; undefined when the WAL was recycled before it was read. */
export async function walByRelation(
  db: Kysely<unknown>,
  ranges: readonly WalRange[],
  transfers: number,
  shown = 10,
): Promise<WalRelationShare[] | undefined> {
  if (ranges.length === 0 || transfers <= 0) return undefined;
  try {
    await sql`create extension if not exists pg_walinspect`.execute(db);
    const starts = ranges.map((range) => range.start);
    const ends = ranges.map((range) => range.end);
    const { rows } = await sql<{ relation: string; bytes: string; fpi: string }>`
      with ranges as (select s::pg_lsn as s, e::pg_lsn as e from unnest(${starts}::text[], ${ends}::text[]) as r(s, e)),
      blocks as (
        select coalesce(c.relname, 'relfilenode ' || b.relfilenode) as relation,
               sum(b.block_data_length + b.block_fpi_length) as bytes, sum(b.block_fpi_length) as fpi
          from ranges r, pg_get_wal_block_info(r.s, r.e) b
          left join pg_class c on c.relfilenode = b.relfilenode
         group by 1),
      total as (select sum(pg_wal_lsn_diff(r.e, r.s)) as bytes from ranges r)
      select relation, bytes::text, fpi::text from blocks
      union all
      select '(record headers)', (t.bytes - (select coalesce(sum(bytes), 0) from blocks))::text, '0' from total t`.execute(
      db,
    );
    const shares = rows
      .map((row) => ({
        relation: row.relation,
        bytesPerTransfer: Number(row.bytes) / transfers,
        fullPageImageBytesPerTransfer: Number(row.fpi) / transfers,
      }))
      .sort((a, b) => b.bytesPerTransfer - a.bytesPerTransfer);
    const rest = shares.slice(shown);
    if (rest.length === 0) return shares;
    return [
      ...shares.slice(0, shown),
      {
        relation: `(${rest.length} more)`,
        bytesPerTransfer: rest.reduce((sum, share) => sum + share.bytesPerTransfer, 0),
        fullPageImageBytesPerTransfer: rest.reduce((sum, share) => sum + share.fullPageImageBytesPerTransfer, 0),
      },
    ];
  } catch {
    // The segments were removed by a checkpoint before they could be read: no profile, the total stands.
    return undefined;
  }
}
