/**
 * The ledger's public entry: the only code that appends events. Everything outside ledger/
 * imports from here: commands, their inputs and results, events, rejections, money.
 */
import type { Kysely } from 'kysely';
import {
  directStore,
  runCommand,
  runWithin,
  type AfterAppend,
  type AfterCommit,
  type Command,
  type CommandContext,
  type EventStore,
  type LedgerTransaction,
} from './handle-command.ts';
import { createAppendBatcher, type BatchingOptions } from './event-store/batch.ts';
import type { AppendResult } from './event-store/append.ts';
import type { LedgerTables } from './event-store/tables.ts';
import { openWallet } from './wallet-accounts/open-wallet.ts';
import { completeCardDeposit, failDeposit, requestDeposit, settleDeposit } from './deposits/deposit.ts';
import { transfer } from './transfers/transfer.ts';
import { acceptMoneyRequest, rejectMoneyRequest, requestMoney } from './money-requests/money-request.ts';
import { reverseTransaction } from './corrections/reverse.ts';
import { raiseDispute, rejectDispute, reopenDispute, upholdDispute } from './disputes/dispute.ts';

export * from './accounts.ts';
export { expireIdempotencyKeys, IDEMPOTENCY_KEY_RETENTION_DAYS } from './idempotency-retention.ts';
export * from './events.ts';
export * from './event-types.ts';
export * from './limits.ts';
export * from './money.ts';
export * from './rejections.ts';
export { LEDGER_SCHEMAS, LEDGER_SQL_DEFINITIONS } from './sql/definitions.ts';
export type { AppendResult } from './event-store/append.ts';
export { DEFAULT_BATCHING, READ_BATCHING, type BatchingOptions } from './event-store/batch.ts';
// The group-commit policy itself, so a benchmark's batched baseline batches exactly like the ledger.
export { createBatcher, type SendBatch, type Settled } from './event-store/batcher.ts';
export type { LedgerTables, AccountRow, EventRow, PostingRow } from './event-store/tables.ts';
export { readStream, toRecordedEvent } from './event-store/read.ts';
export type { CommandContext, AfterAppend, AfterCommit, LedgerDb, LedgerTransaction } from './handle-command.ts';
export type { TransferInput, TransferResult } from './transfers/transfer.ts';
export type {
  RequestDepositInput,
  SettleDepositInput,
  FailDepositInput,
  CompleteCardDepositInput,
  DepositResult,
} from './deposits/deposit.ts';
export type { RequestMoneyInput, AnswerMoneyRequestInput, MoneyRequestResult } from './money-requests/money-request.ts';
export { transferStream, requireTransferTerms } from './transfers/transfer.ts';
export { depositStream, requireDepositTerms } from './deposits/deposit.ts';
export { moneyRequestStream } from './money-requests/money-request.ts';
export { walletStream } from './wallet-accounts/open-wallet.ts';
export { REVERSAL_KINDS, MIN_REASON_LENGTH, MAX_REASON_LENGTH, streamOfReversal } from './corrections/reverse.ts';
export type { ReversalKind, ReverseInput, ReversalResult } from './corrections/reverse.ts';
export { previewAdminAction } from './corrections/preview.ts';
export type {
  DisputeKind,
  DisputeResult,
  RaiseDisputeInput,
  RejectDisputeInput,
  ReopenDisputeInput,
} from './disputes/dispute.ts';
export type { AdminMoneyAction, AdminActionPreview } from './corrections/preview.ts';

const commands = {
  openWallet,
  requestDeposit,
  settleDeposit,
  failDeposit,
  completeCardDeposit,
  transfer,
  requestMoney,
  acceptMoneyRequest,
  rejectMoneyRequest,
  reverseTransaction,
  raiseDispute,
  upholdDispute,
  reopenDispute,
  rejectDispute,
};

type Commands = typeof commands;
type Bound<C> =
  C extends Command<infer Input, infer Result> ? (input: Input, ctx: CommandContext) => Promise<Result> : never;
export type LedgerCommands = { [Name in keyof Commands]: Bound<Commands[Name]> };

export interface Ledger extends LedgerCommands {
  /** The same commands inside a transaction the caller owns. */
  within(trx: LedgerTransaction): LedgerCommands;
}

export interface LedgerOptions {
  db: Kysely<LedgerTables>;
  /**
   * Group commit for standalone commands (default on: batches of at most 64, two on their
   * way at once); `false` appends each command by itself.
   */
  batching?: BatchingOptions | false;
  /** Runs after each standalone command's append has committed: the projections are woken here. */
  afterCommit?: AfterCommit;
  /** Runs inside a caller's transaction after each append there (`within`): wakes on its commit. */
  afterAppend?: AfterAppend;
}

export function createLedger(options: LedgerOptions): Ledger {
  const bind = (
    run: <I, R extends AppendResult>(command: Command<I, R>, input: I, ctx: CommandContext) => Promise<R>,
  ): LedgerCommands => {
    const bound: Record<string, unknown> = {};
    for (const [name, command] of Object.entries(commands)) {
      bound[name] = (input: unknown, ctx: CommandContext) => run(command as Command<unknown, AppendResult>, input, ctx);
    }
    return bound as LedgerCommands;
  };
  const store: EventStore =
    options.batching === false
      ? directStore(options.db)
      : { db: options.db, append: createAppendBatcher(options.db, options.batching).append };
  return {
    ...bind((command, input, ctx) => runCommand({ store, afterCommit: options.afterCommit }, command, input, ctx)),
    within: (trx) => bind((command, input, ctx) => runWithin(trx, options.afterAppend, command, input, ctx)),
  };
}
