/**
 * Reading the log back: one stream in version order, or any slice by position.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { EventBody, EventMetadata, RecordedEvent } from '../events.ts';
import { reviveMoney } from './codec.ts';
import type { EventRow, LedgerTables } from './tables.ts';

type Reader = Kysely<LedgerTables> | Transaction<LedgerTables>;

export async function readStream(db: Reader, streamId: string): Promise<RecordedEvent[]> {
  const rows = await db
    .selectFrom('ledger.events')
    .selectAll()
    .where('stream_id', '=', streamId)
    .orderBy('stream_version')
    .execute();
  return rows.map(toRecordedEvent);
}

export function toRecordedEvent(row: Selectable<EventRow>): RecordedEvent {
  // The type column and data shape are written only by this module's appends.
  const event = { type: row.type, data: reviveMoney(row.data) } as EventBody;
  return {
    ...event,
    position: row.position,
    txId: row.tx_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    metadata: row.metadata as EventMetadata,
    recordedAt: row.recorded_at,
  };
}
