/**
 * The projections' checkpoint rows as operators see them (status, last error).
 */
import type { Kysely, Selectable } from 'kysely';
import type { CheckpointRow, ReadTables } from '../tables.ts';

export async function readProjectionCheckpoints(db: Kysely<ReadTables>): Promise<Selectable<CheckpointRow>[]> {
  return db.selectFrom('read.checkpoints').selectAll().orderBy('projection').execute();
}
