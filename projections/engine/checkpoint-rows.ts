/**
 * The projections' checkpoint rows as operators see them (status, last error).
 */
import type { Kysely, Selectable } from 'kysely';
import type { CheckpointRow, CheckpointTables } from '../tables.ts';

export async function readProjectionCheckpoints(db: Kysely<CheckpointTables>): Promise<Selectable<CheckpointRow>[]> {
  return db.selectFrom('read.checkpoints').selectAll().orderBy('projection').execute();
}
