/**
 * An admin's money actions - settling or failing a pending deposit, reversing a movement -
 * with the rails around them: the ledger refuses an admin who is a party (and hand-settled
 * card deposits); above the approval threshold a settlement or reversal waits in
 * `audit.approval_requests` until a second admin approves it; every action commits with its
 * audit row. Refusals of the approval flow are ApprovalRejections (./rejections.ts).
 *
 * Why four eyes on amounts and not on every action: most reviews are small and routine;
 * one admin alone must not be able to move a large sum, which is where a compromised or
 * dishonest admin account does its damage.
 *
 * "A large sum" is counted over a rolling 24 hours, not one action at a time, or one admin
 * could move any sum in pieces just under the threshold: an action also waits when, with
 * what was done without a second admin in the last 24 hours (`audit.solo_money_actions`,
 * migrations/0001_baseline.ts), it takes the admin's total of settlements and reversals, or the total
 * credited into the wallet it credits, above the threshold. And money into an account the
 * same admin activated always waits: activating a wallet of one's own making (a second
 * registration) and settling deposits into it is the one-admin way to create money. The
 * check and the row it adds run in the action's transaction under advisory locks on the
 * admin and the wallet, so two actions at once cannot both count without the other.
 */
import { createHash } from 'node:crypto';
import { newId } from '../platform/ids.ts';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ApprovalRecord, ApprovalState } from '../contracts/admin.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import {
  isLedgerRejection,
  previewAdminAction,
  type AdminActionPreview,
  type AdminMoneyAction,
  type CommandContext,
  type DepositResult,
  type FailDepositInput,
  type Ledger,
  type LedgerCommands,
  type LedgerEventType,
  type LedgerTables,
  type Paise,
} from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { recordAdminAction } from '../audit/index.ts';
import { runAudited } from './audited.ts';
import { ApprovalRejection } from './rejections.ts';

export interface AdminMoneyDependencies {
  db: Kysely<unknown>;
  ledger: Ledger;
  /** Above this amount an action needs a second admin (ADMIN_APPROVAL_THRESHOLD). */
  approvalThresholdPaise: Paise;
}

/** The ledger's answer to an action that ran: its stream and checkpoint. */
export interface ActionDone {
  status: 'done';
  streamId: string;
  checkpoint: string;
  positions: string[];
  replayed: boolean;
}

/**
 * Why an action waits for a second admin: its amount; the admin's, or the wallet's, total
 * without a second admin over 24 hours; or the admin activated the account it credits.
 */
export type ApprovalCause = 'amount' | 'admin_daily_total' | 'wallet_daily_total' | 'activated_by_requester';

export type AdminMoneyOutcome =
  ActionDone | { status: 'awaiting_approval'; approval: ApprovalRecord; cause: ApprovalCause };

/** A caller's step that must commit with a filed approval request (or not at all). */
export type OnFiled = (approval: ApprovalRecord, commands: LedgerCommands, trx: Transaction<unknown>) => Promise<void>;

/** The window over which an admin's (and a wallet's) actions without a second admin add up. */
export const SOLO_WINDOW_HOURS = 24;

/**
 * Runs the action now, or files it for a second admin when its amount is above the
 * threshold, when it would take the admin's or the credited wallet's 24-hour total without a
 * second admin above it, or when it credits an account this admin activated. The preview
 * refuses early what the command would refuse (not pending, the admin is a party...), except
 * a retry of an action that already ran: that one goes to the ledger, which answers the
 * first result for the same Idempotency-Key.
 */
export async function performAdminMoneyAction(
  deps: AdminMoneyDependencies,
  action: AdminMoneyAction,
  ctx: CommandContext,
  /** Runs in the transaction that files the request, with the ledger bound to it: both commit or neither. */
  onFiled: OnFiled = async () => {},
): Promise<AdminMoneyOutcome> {
  let preview: AdminActionPreview;
  try {
    preview = await previewAdminAction(tablesView<LedgerTables>(deps.db), action, ctx.actorId);
  } catch (error) {
    if (
      ctx.idempotencyKey &&
      isLedgerRejection(error) &&
      (error.code === 'deposit_not_pending' || error.code === 'already_reversed')
    ) {
      return runAdminMoneyAction(deps, action, ctx, {});
    }
    throw error;
  }
  return runAudited(deps.db, deps.ledger, async (commands, trx): Promise<AdminMoneyOutcome> => {
    const cause =
      preview.amountPaise > deps.approvalThresholdPaise
        ? 'amount'
        : await soloApprovalCause(trx, preview, ctx.actorId, deps.approvalThresholdPaise);
    if (cause) {
      const approval = await fileApprovalRequest(trx, action, preview, ctx.actorId, cause);
      await onFiled(approval, commands, trx);
      return { status: 'awaiting_approval', approval, cause };
    }
    const done = await runAction(commands, trx, action, ctx, {});
    if (!done.replayed) await recordSoloAction(trx, action, preview, ctx.actorId);
    return done;
  });
}

/**
 * Whether an action one admin would run alone needs a second one after all (null: it may
 * run). Takes advisory locks on the admin and the credited wallets first, held until the
 * transaction ends: a concurrent action by the same admin or into the same wallet waits here
 * and then sees this one's row, so two cannot both slip under the threshold.
 */
async function soloApprovalCause(
  trx: Transaction<unknown>,
  preview: AdminActionPreview,
  adminId: string,
  thresholdPaise: Paise,
): Promise<ApprovalCause | null> {
  const wallets = [...new Set(preview.creditedWalletIds)];
  await lockInOrder(trx, [`admin:${adminId}`, ...wallets.map((wallet) => `wallet:${wallet}`)]);
  if (wallets.length > 0) {
    const { rows } = await sql<{ activated: boolean }>`
      select exists (
        select 1 from audit.admin_actions
         where action = 'activate' and actor_id = ${adminId} and target in (${sql.join(wallets)})
           and (details->>'wasVerified') is distinct from 'true'
      ) as activated`.execute(trx);
    if (rows[0]?.activated) return 'activated_by_requester';
  }
  const window = sql`now() - make_interval(hours => ${SOLO_WINDOW_HOURS})`;
  const { rows: byAdmin } = await sql<{ total: string }>`
    select coalesce(sum(amount_paise), 0)::text as total from audit.solo_money_actions
     where admin_id = ${adminId} and recorded_at > ${window}`.execute(trx);
  if (BigInt(byAdmin[0]?.total ?? '0') + preview.amountPaise > thresholdPaise) return 'admin_daily_total';
  for (const wallet of wallets) {
    const { rows: byWallet } = await sql<{ total: string }>`
      select coalesce(sum(amount_paise), 0)::text as total from audit.solo_money_actions
       where wallet_id = ${wallet} and recorded_at > ${window}`.execute(trx);
    if (BigInt(byWallet[0]?.total ?? '0') + preview.amountPaise > thresholdPaise) return 'wallet_daily_total';
  }
  return null;
}

/**
 * Transaction-scoped advisory locks on `keys`, always taken in the same (numeric) order so
 * two transactions locking overlapping sets cannot deadlock.
 */
async function lockInOrder(trx: Transaction<unknown>, keys: readonly string[]): Promise<void> {
  const ids = [
    ...new Set(keys.map((key) => createHash('sha256').update(`audit.solo:${key}`).digest().readBigInt64BE(0))),
  ];
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const id of ids) await sql`select pg_advisory_xact_lock(${id}::bigint)`.execute(trx);
}

/** The action ran without a second admin: it counts toward the 24-hour totals. */
async function recordSoloAction(
  trx: Transaction<unknown>,
  action: AdminMoneyAction,
  preview: AdminActionPreview,
  adminId: string,
): Promise<void> {
  await sql`
    insert into audit.solo_money_actions (admin_id, action, target, wallet_id, amount_paise)
    values (${adminId}, ${action.action}, ${preview.streamId}, ${preview.creditedWalletIds[0] ?? null}, ${preview.amountPaise})`.execute(
    trx,
  );
}

/**
 * Fails a pending deposit, with its audit row, in one transaction. No approval threshold:
 * failing moves no money.
 */
export async function failDepositAsAdmin(
  deps: Pick<AdminMoneyDependencies, 'db' | 'ledger'>,
  input: FailDepositInput,
  ctx: CommandContext,
): Promise<DepositResult> {
  return runAudited(deps.db, deps.ledger, async (commands, trx) => {
    const failed = await commands.failDeposit(input, ctx);
    if (!failed.replayed)
      await recordAdminAction(trx, {
        actorId: ctx.actorId,
        action: 'fail',
        target: failed.streamId,
        reason: input.reason,
        details: { depositId: input.depositId },
      });
    return failed;
  });
}

/** The ledger command and its audit row in one transaction (a replayed command records nothing). */
async function runAdminMoneyAction(
  deps: AdminMoneyDependencies,
  action: AdminMoneyAction,
  ctx: CommandContext,
  auditDetails: Record<string, unknown>,
  /** Runs first in the action's transaction (an approval locks and closes its request there). */
  first: (trx: Transaction<unknown>) => Promise<void> = async () => {},
): Promise<ActionDone> {
  return runAudited(deps.db, deps.ledger, async (commands, trx) => {
    await first(trx);
    return runAction(commands, trx, action, ctx, auditDetails);
  });
}

/** The ledger command and its audit row, in the caller's transaction. */
async function runAction(
  commands: LedgerCommands,
  trx: Transaction<unknown>,
  action: AdminMoneyAction,
  ctx: CommandContext,
  auditDetails: Record<string, unknown>,
): Promise<ActionDone> {
  if (action.action === 'settle') {
    const settled = await commands.settleDeposit({ depositId: action.depositId }, ctx);
    if (!settled.replayed)
      await recordAdminAction(trx, {
        actorId: ctx.actorId,
        action: 'settle',
        target: settled.streamId,
        details: { depositId: action.depositId, ...auditDetails },
      });
    return {
      status: 'done',
      streamId: settled.streamId,
      checkpoint: settled.checkpoint,
      positions: settled.positions,
      replayed: settled.replayed,
    };
  }
  const { reversal } = action;
  const reversed = await commands.reverseTransaction(reversal, ctx);
  if (!reversed.replayed) {
    await closeDisputeByReversal(trx, reversed.streamId, ctx.actorId, reversal.reason);
    await recordAdminAction(trx, {
      actorId: ctx.actorId,
      action: 'reverse',
      target: reversed.streamId,
      reason: reversal.reason,
      details: {
        kind: reversal.kind,
        transactionId: reversal.transactionId,
        position: reversed.positions[0],
        ...auditDetails,
      },
    });
  }
  return {
    status: 'done',
    streamId: reversed.streamId,
    checkpoint: reversed.checkpoint,
    positions: reversed.positions,
    replayed: reversed.replayed,
  };
}

/**
 * A reversal resolves the payment's open dispute (admin-actions/disputes.ts), in the reversal's
 * transaction: whichever way the reversal came - from the disputes queue, the explorer, or a
 * second admin's approval - the queue says so together with the ledger.
 */
async function closeDisputeByReversal(
  trx: Transaction<unknown>,
  streamId: string,
  adminId: string,
  reason: string,
): Promise<void> {
  await sql`
    update audit.disputes set status = 'reversed', decided_by = ${adminId}, decided_at = now(), decision_reason = ${reason.trim()}
     where stream_id = ${streamId} and status = 'open'`.execute(trx);
}

// ---- approval requests ---------------------------------------------------------------

interface ApprovalRow {
  id: string;
  action: 'settle' | 'reverse';
  target: string;
  input: AdminMoneyAction;
  amount_paise: bigint;
  requested_by: string;
  requested_by_name: string | null;
  requested_at: Date;
  state: ApprovalState;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
  customer_id: string | null;
  customer_name: string | null;
  method: string | null;
}

/**
 * Whose money an approval moves and how, from the first event of its target stream (the
 * request that opened it: a deposit's wallet and method, a transfer's sender, a request's
 * payer), so the approvals table names a person and a method rather than a stream id.
 */
const APPROVAL_COLUMNS = sql`a.id, a.action, a.target, a.input, a.amount_paise, a.requested_by, r.display_name as requested_by_name, a.requested_at,
  a.state, a.decided_by, d.display_name as decided_by_name, a.decided_at, a.decision_reason,
  o.customer_id, c.display_name as customer_name, o.method`;
const APPROVAL_JOINS = sql`left join read.directory r on r.account_id = a.requested_by left join read.directory d on d.account_id = a.decided_by
  left join lateral (
    select coalesce(e.data->>'walletId', e.data->>'fromAccountId', e.data->>'payerId') as customer_id,
           case e.type when ${sql.lit('DepositRequested' satisfies LedgerEventType)} then e.data->>'method'
                       when ${sql.lit('TransferCompleted' satisfies LedgerEventType)} then 'transfer'
                       when ${sql.lit('MoneyRequested' satisfies LedgerEventType)} then 'request' end as method
      from ledger.events e where e.stream_id = a.target order by e.stream_version limit 1) o on true
  left join read.directory c on c.account_id = o.customer_id`;

function toApprovalRecord(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    action: row.action,
    target: row.target,
    amount: rupeesFromPaise(BigInt(row.amount_paise)),
    reason: row.input.action === 'reverse' ? row.input.reversal.reason : null,
    requestedBy: row.requested_by,
    requestedByName: row.requested_by_name,
    requestedAt: row.requested_at.toISOString(),
    state: row.state,
    decidedBy: row.decided_by,
    decidedByName: row.decided_by_name,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decisionReason: row.decision_reason,
    customerId: row.customer_id,
    customerName: row.customer_name,
    method: row.method,
  };
}

async function readApproval(
  db: Kysely<unknown> | Transaction<unknown>,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ApprovalRow | undefined> {
  const lock = options.lock ? sql`for update of a` : sql``;
  const { rows } =
    await sql<ApprovalRow>`select ${APPROVAL_COLUMNS} from audit.approval_requests a ${APPROVAL_JOINS} where a.id = ${id} ${lock}`.execute(
      db,
    );
  return rows[0];
}

/**
 * Files the request, or returns the one already open for the same stream (a retry, or a
 * second admin asking for the same thing: they approve it instead). In the caller's
 * transaction; the audit row says why it waits.
 */
async function fileApprovalRequest(
  trx: Transaction<unknown>,
  action: AdminMoneyAction,
  preview: AdminActionPreview,
  requestedBy: string,
  cause: ApprovalCause,
): Promise<ApprovalRecord> {
  const id = newId();
  const { rows } = await sql<{ id: string }>`
    insert into audit.approval_requests (id, action, target, input, amount_paise, requested_by)
    values (${id}, ${action.action}, ${preview.streamId}, ${JSON.stringify(action)}::jsonb, ${preview.amountPaise}, ${requestedBy})
    on conflict (target) where state = 'pending' do nothing
    returning id`.execute(trx);
  if (rows[0]) {
    const reason = action.action === 'reverse' ? action.reversal.reason : null;
    await recordAdminAction(trx, {
      actorId: requestedBy,
      action: 'request_approval',
      target: preview.streamId,
      reason,
      details: { approvalId: id, action: action.action, amountPaise: preview.amountPaise.toString(), cause },
    });
  }
  const { rows: open } =
    await sql<ApprovalRow>`select ${APPROVAL_COLUMNS} from audit.approval_requests a ${APPROVAL_JOINS} where a.target = ${preview.streamId} and a.state = 'pending'`.execute(
      trx,
    );
  if (!open[0])
    throw new ApprovalRejection('approval_changed_concurrently', 'The approval request changed at the same time');
  return toApprovalRecord(open[0]);
}

export interface ApprovalListQuery {
  state?: ApprovalState | undefined;
  limit: number;
}

/** Newest first; pending ones are what the second admin works through. */
export async function listApprovalRequests(db: Kysely<unknown>, query: ApprovalListQuery): Promise<ApprovalRecord[]> {
  const { rows } = await sql<ApprovalRow>`
    select ${APPROVAL_COLUMNS} from audit.approval_requests a ${APPROVAL_JOINS}
     where (${query.state ?? null}::text is null or a.state = ${query.state ?? null}::text)
     order by a.requested_at desc, a.id desc
     limit ${query.limit}`.execute(db);
  return rows.map(toApprovalRecord);
}

/**
 * A second admin approves: the action runs as theirs (the ledger checks that they are not a
 * party either), under an idempotency key of the approval, in the transaction that marks the
 * request approved. Whoever filed the request cannot approve it.
 */
export async function approveRequest(
  deps: AdminMoneyDependencies,
  approvalId: string,
  ctx: CommandContext,
): Promise<{ approval: ApprovalRecord; done: ActionDone }> {
  const pending = await readApproval(deps.db, approvalId);
  requireDecidable(pending, ctx.actorId, 'approve');
  const done = await runAdminMoneyAction(
    deps,
    pending.input,
    { ...ctx, idempotencyKey: `approval:${approvalId}` },
    { approvalId, requestedBy: pending.requested_by },
    async (trx) => {
      // Locked and re-checked inside the action's transaction: two approvers cannot both run it.
      requireDecidable(await readApproval(trx, approvalId, { lock: true }), ctx.actorId, 'approve');
      await sql`update audit.approval_requests set state = 'approved', decided_by = ${ctx.actorId}, decided_at = now() where id = ${approvalId}`.execute(
        trx,
      );
    },
  );
  const approval = await readApproval(deps.db, approvalId);
  if (!approval) throw new ApprovalRejection('approval_not_found', `No approval request ${approvalId}`);
  return { approval: toApprovalRecord(approval), done };
}

/**
 * Any admin may turn a request down, the requester included (withdrawing it). A turned-down
 * reversal that an upheld dispute waited for reopens that dispute, in the same transaction.
 */
export async function rejectRequest(
  deps: Pick<AdminMoneyDependencies, 'db' | 'ledger'>,
  approvalId: string,
  ctx: CommandContext,
  reason: string | null,
): Promise<ApprovalRecord> {
  const adminId = ctx.actorId;
  await runAudited(deps.db, deps.ledger, async (commands, trx) => {
    const row = await readApproval(trx, approvalId, { lock: true });
    requireDecidable(row, adminId, 'reject');
    await sql`update audit.approval_requests set state = 'rejected', decided_by = ${adminId}, decided_at = now(), decision_reason = ${reason} where id = ${approvalId}`.execute(
      trx,
    );
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'reject_approval',
      target: row.target,
      reason,
      details: { approvalId, requestedBy: row.requested_by },
    });
    if (row.action === 'reverse') await reopenUpheldDispute(commands, trx, row, reason, ctx);
  });
  const approval = await readApproval(deps.db, approvalId);
  if (!approval) throw new ApprovalRejection('approval_not_found', `No approval request ${approvalId}`);
  return toApprovalRecord(approval);
}

/**
 * The payment's open dispute, upheld with this request as its reversal, is open again: a
 * ledger event (DisputeReopened) tells the payer, whose page said "awaiting approval". The
 * queue's row stays `open` (audit.disputes): only the waiting request made it "awaiting
 * approval", and that request is rejected now. A reversal filed from the explorer while a
 * dispute was open was never the dispute's (no DisputeUpheld names it): nothing to reopen.
 */
async function reopenUpheldDispute(
  commands: LedgerCommands,
  trx: Transaction<unknown>,
  approval: ApprovalRow,
  reason: string | null,
  ctx: CommandContext,
): Promise<void> {
  const { rows } = await sql<{ id: string; kind: 'transfer' | 'request'; transaction_id: string }>`
    select id, kind, transaction_id from audit.disputes where stream_id = ${approval.target} and status = 'open'`.execute(
    trx,
  );
  const dispute = rows[0];
  if (!dispute) return;
  const input = { kind: dispute.kind, transactionId: dispute.transaction_id, disputeId: dispute.id };
  try {
    await commands.reopenDispute({ ...input, reason, approvalId: approval.id }, ctx);
  } catch (error) {
    if (isLedgerRejection(error) && error.code === 'dispute_not_upheld') return;
    throw error;
  }
}

function requireDecidable(
  row: ApprovalRow | undefined,
  adminId: string,
  decision: 'approve' | 'reject',
): asserts row is ApprovalRow {
  if (!row) throw new ApprovalRejection('approval_not_found', 'No such approval request');
  if (row.state === 'approved')
    throw new ApprovalRejection('approval_already_approved', `Approval request ${row.id} is already approved`);
  if (row.state === 'rejected')
    throw new ApprovalRejection('approval_already_rejected', `Approval request ${row.id} is already rejected`);
  if (decision === 'approve' && row.requested_by === adminId)
    throw new ApprovalRejection('approver_is_requester', `${adminId} filed approval request ${row.id}`);
}
