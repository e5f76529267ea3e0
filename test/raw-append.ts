/**
 * Test helpers that append through the `ledger.append` SQL function directly, on a raw pg
 * client: for controlling transaction boundaries and commit order, and for generating many
 * events quickly. The events are valid ledger events (the generator keeps balances).
 */
import type pg from 'pg';

export interface RawEvent {
  type: string;
  data: Record<string, unknown>;
  postings?: { account: string; amount: string }[];
}

export async function rawAppend(
  client: pg.Client | pg.PoolClient,
  streamId: string,
  expectedVersion: number,
  events: RawEvent[],
): Promise<string> {
  const { rows } = await client.query<{ result: { checkpoint: string } }>(
    `select ledger.append($1, $2::int, $3::jsonb, '{}'::jsonb, null, '{}'::jsonb) as result`,
    [streamId, expectedVersion, JSON.stringify(events)],
  );
  const checkpoint = rows[0]?.result.checkpoint;
  if (!checkpoint) throw new Error('append returned no checkpoint');
  return checkpoint;
}

export function depositRequested(
  depositId: string,
  walletId: string,
  amountPaise: bigint,
  reference: string,
): RawEvent {
  return {
    type: 'DepositRequested',
    data: {
      depositId,
      walletId,
      amountPaise: amountPaise.toString(),
      method: 'upi',
      reference,
      details: { upiId: `${walletId}@upi` },
    },
  };
}

/** A TransferCompleted event as the ledger writes it: the payer's line and the payee's. */
export function transferCompleted(
  transferId: string,
  fromAccountId: string,
  toAccountId: string,
  amountPaise: bigint,
  reference = `pay ${transferId}`,
): RawEvent {
  return {
    type: 'TransferCompleted',
    data: { transferId, fromAccountId, toAccountId, amountPaise: amountPaise.toString(), reference },
    postings: [
      { account: fromAccountId, amount: (-amountPaise).toString() },
      { account: toAccountId, amount: amountPaise.toString() },
    ],
  };
}
