/**
 * Projection "money_requests": every request with both parties' names, its status and
 * when it was made and last answered. The API splits it into sent (requester) and
 * received (payer).
 */
import type { AnyTransaction, ProjectedEvent } from './event-batch.ts';
import { insertRows, table, updateRows, type Columns } from './bulk.ts';
import { nameOf, resolveNames } from './names.ts';
import type { Selectable } from 'kysely';
import type { MoneyRequestRow, MoneyRequestStatus } from './tables.ts';
import type { Projection } from './definition.ts';

const REQUESTS: Columns = [
  ['request_id', 'text'],
  ['requester_id', 'text'],
  ['requester_name', 'text'],
  ['payer_id', 'text'],
  ['payer_name', 'text'],
  ['amount_paise', 'bigint'],
  ['reference', 'text'],
  ['status', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['position', 'bigint'],
];
const STATUS_UPDATE: Columns = [
  ['request_id', 'text'],
  ['status', 'text'],
  ['updated_at', 'timestamptz'],
];

/** A request row as this projection writes it: the read table's row. */
type NewRequest = Selectable<MoneyRequestRow>;

interface StatusChange {
  request_id: string;
  status: MoneyRequestStatus;
  updated_at: Date;
}

async function apply(trx: AnyTransaction, schema: string, events: readonly ProjectedEvent[]): Promise<void> {
  const parties = events.flatMap((event) =>
    event.type === 'MoneyRequested' ? [event.data.requesterId, event.data.payerId] : [],
  );
  const names = await resolveNames(trx, parties);
  const created = new Map<string, NewRequest>();
  const changes: StatusChange[] = [];
  for (const event of events) {
    if (event.type === 'MoneyRequested') {
      const { requestId, requesterId, payerId, amountPaise, reference } = event.data;
      created.set(requestId, {
        request_id: requestId,
        requester_id: requesterId,
        requester_name: nameOf(names, requesterId),
        payer_id: payerId,
        payer_name: nameOf(names, payerId),
        amount_paise: amountPaise,
        reference,
        status: 'pending',
        created_at: event.recordedAt,
        updated_at: event.recordedAt,
        position: event.position,
      });
      continue;
    }
    if (event.type !== 'MoneyRequestAccepted' && event.type !== 'MoneyRequestRejected') continue;
    const change: StatusChange = {
      request_id: event.data.requestId,
      status: event.type === 'MoneyRequestAccepted' ? 'accepted' : 'rejected',
      updated_at: event.recordedAt,
    };
    const pending = created.get(change.request_id);
    if (pending) Object.assign(pending, { status: change.status, updated_at: change.updated_at });
    else changes.push(change);
  }
  await insertRows(trx, table(schema, 'money_requests'), REQUESTS, [...created.values()]);
  await updateRows(trx, table(schema, 'money_requests'), STATUS_UPDATE, ['request_id'], changes);
}

export const moneyRequestsProjection: Projection = { name: 'money_requests', tables: ['money_requests'], apply };
