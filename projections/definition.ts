/**
 * What a projection is: a name, the read tables it alone writes, and how it applies a
 * batch of events to those tables in a given schema (`read`, or a rebuild schema during
 * replay). Applying runs inside the batch's transaction, with the checkpoint row locked.
 */
import type { AnyTransaction, ProjectedEvent } from './event-batch.ts';
import type { RecordedEvent } from '../ledger/index.ts';

export interface Projection {
  name: ProjectionName;
  /** The read tables it owns, in the order a replay's swap locks them (readers that take
   * several in one transaction must take them in this order). */
  tables: readonly string[];
  /**
   * Tables the projection only ever inserts into (no upsert, update or lookup by key): a
   * replay loads them without their primary and unique keys and adds those after (the same
   * uniqueness check, made once over sorted rows instead of row by row).
   */
  insertOnlyTables?: readonly string[];
  apply(trx: AnyTransaction, schema: string, events: readonly ProjectedEvent[]): Promise<void>;
}

export const PROJECTION_NAMES = ['accounts', 'history', 'money_requests'] as const;
export type ProjectionName = (typeof PROJECTION_NAMES)[number];

export function isProjectionName(value: string): value is ProjectionName {
  return (PROJECTION_NAMES as readonly string[]).includes(value);
}

/** The id users see for a money movement: the transfer, deposit or request id. */
export function transactionIdOf(event: RecordedEvent): string {
  switch (event.type) {
    case 'TransferCompleted':
    case 'TransferReversed':
      return event.data.transferId;
    case 'DepositRequested':
    case 'DepositSettled':
    case 'DepositFailed':
    case 'DepositReversed':
      return event.data.depositId;
    case 'MoneyRequested':
    case 'MoneyRequestAccepted':
    case 'MoneyRequestRejected':
    case 'MoneyRequestPaymentReversed':
      return event.data.requestId;
    case 'WalletOpened':
      return event.data.accountId;
    default: {
      const unknown: never = event;
      throw new Error(`no transaction id for ${JSON.stringify(unknown)}`);
    }
  }
}
