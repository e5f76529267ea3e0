/**
 * Transfers between two wallets. The decision is pure; the funds check happens in the
 * database, in the statement that moves the money, so concurrent transfers cannot overdraw.
 */
import { NO_STREAM, type AppendResult } from '../event-store/append.ts';
import type { TransferCompleted } from '../events.ts';
import { idempotencyClaim, metadataFor, type CommandContext, type EventStore } from '../handle-command.ts';
import { MIN_TRANSFER_PAISE } from '../limits.ts';
import type { Paise } from '../money.ts';
import { reject } from '../rejections.ts';
import { requireAmountInRange, requireReference } from '../validation.ts';

export interface TransferInput {
  transferId: string;
  fromAccountId: string;
  toAccountId: string;
  amountPaise: Paise;
  reference: string;
}

export type TransferResult = AppendResult & { transferId: string };

/**
 * What every transfer must meet: two different wallets, an amount of at least the minimum,
 * a reference. Pure, and exported so a caller can ask before it spends something: the
 * transfer route refuses a self-transfer before the PIN check counts an attempt.
 */
export function requireTransferTerms(terms: Omit<TransferInput, 'transferId'>): void {
  if (terms.fromAccountId === terms.toAccountId) reject('self_transfer', 'Cannot transfer to your own account');
  requireAmountInRange(terms.amountPaise, MIN_TRANSFER_PAISE);
  requireReference(terms.reference);
}

export function decideTransfer(input: TransferInput): TransferCompleted {
  requireTransferTerms(input);
  return {
    type: 'TransferCompleted',
    data: { ...input, reference: input.reference.trim() },
    postings: [
      { accountId: input.fromAccountId, amountPaise: -input.amountPaise },
      { accountId: input.toAccountId, amountPaise: input.amountPaise },
    ],
  };
}

export async function transfer(store: EventStore, input: TransferInput, ctx: CommandContext): Promise<TransferResult> {
  const event = decideTransfer(input);
  const { transferId, ...fingerprint } = input;
  // One round trip: the SQL function also answers a repeated idempotency key with the first
  // result. The transfer's id is read back from its stream's name rather than kept in the
  // idempotency record (a replay answers the first transfer's id, never this request's).
  const result = await store.append({
    streamId: transferStream(transferId),
    expectedVersion: NO_STREAM,
    events: [event],
    metadata: metadataFor('transfer', ctx),
    idempotency: idempotencyClaim('transfer', ctx, fingerprint),
  });
  return { ...result, transferId: transferIdOf(result.streamId) };
}

const TRANSFER_STREAM_PREFIX = 'transfer-';

export function transferStream(transferId: string): string {
  return `${TRANSFER_STREAM_PREFIX}${transferId}`;
}

function transferIdOf(streamId: string): string {
  if (!streamId.startsWith(TRANSFER_STREAM_PREFIX)) throw new Error(`not a transfer's stream: ${streamId}`);
  return streamId.slice(TRANSFER_STREAM_PREFIX.length);
}
