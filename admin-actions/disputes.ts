/**
 * Disputes of payments: the payer raises one, an admin resolves it by reversing the payment
 * (performAdminMoneyAction: the existing four-eyes rules decide whether a second admin must
 * approve) or rejects it with a reason. Each step is a ledger event on the payment's stream
 * (DisputeRaised, DisputeRejected, or the reversal itself), appended in the transaction that
 * keeps the admins' queue `audit.disputes` (migrations/0008_disputes.ts) and, for an admin's
 * step, its audit row - so the queue never says what the ledger does not.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DisputeRecord, DisputeStatus } from '../contracts/disputes.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import { newId } from '../platform/ids.ts';
import {
  isLedgerRejection,
  LedgerRejection,
  type CommandContext,
  type DisputeKind,
  type DisputeResult,
  type Ledger,
  type LedgerCommands,
} from '../ledger/index.ts';
import { recordAdminAction } from '../audit/index.ts';
import { runAudited } from './audited.ts';
import { performAdminMoneyAction, type AdminMoneyDependencies, type AdminMoneyOutcome } from './money-actions.ts';
import { ApprovalRejection } from './rejections.ts';

type Db = Kysely<unknown> | Transaction<unknown>;

interface DisputeRow {
  id: string;
  stream_id: string;
  kind: DisputeKind;
  transaction_id: string;
  payer_id: string;
  payer_name: string | null;
  payee_id: string;
  payee_name: string | null;
  amount_paise: string;
  reason: string;
  status: 'open' | 'rejected' | 'reversed';
  raised_at: Date;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
  approval_id: string | null;
}

/** A dispute with its parties' names and the reversal filed for a second admin, if one waits. */
const DISPUTE_SELECT = sql`
  select s.id, s.stream_id, s.kind, s.transaction_id, s.payer_id, p.display_name as payer_name, s.payee_id,
         q.display_name as payee_name, s.amount_paise::text as amount_paise, s.reason, s.status, s.raised_at,
         s.decided_by, d.display_name as decided_by_name, s.decided_at, s.decision_reason, a.id as approval_id
    from audit.disputes s
    left join read.directory p on p.account_id = s.payer_id
    left join read.directory q on q.account_id = s.payee_id
    left join read.directory d on d.account_id = s.decided_by
    left join audit.approval_requests a on a.target = s.stream_id and a.state = 'pending' and s.status = 'open'`;

function toDisputeRecord(row: DisputeRow): DisputeRecord {
  const status: DisputeStatus = row.status === 'open' && row.approval_id ? 'awaiting_approval' : row.status;
  return {
    id: row.id,
    kind: row.kind,
    transactionId: row.transaction_id,
    status,
    reason: row.reason,
    amount: rupeesFromPaise(BigInt(row.amount_paise)),
    payer: { id: row.payer_id, name: row.payer_name ?? row.payer_id },
    payee: { id: row.payee_id, name: row.payee_name ?? row.payee_id },
    raisedAt: row.raised_at.toISOString(),
    decidedBy: row.decided_by,
    decidedByName: row.decided_by_name,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decisionReason: row.decision_reason,
    approvalId: row.approval_id,
  };
}

/**
 * The payer disputes their payment: the ledger decides (only the payer, of a completed
 * payment not reversed, with no dispute open) and the queue gets the row, from the event
 * itself, in the same transaction. A retry with the same Idempotency-Key adds nothing.
 */
export async function raiseDispute(
  deps: { db: Kysely<unknown>; ledger: Ledger },
  input: { kind: DisputeKind; transactionId: string; reason: string },
  ctx: CommandContext,
): Promise<DisputeResult> {
  return runAudited(deps.db, deps.ledger, async (commands, trx) => {
    const raised = await commands.raiseDispute({ ...input, disputeId: newId() }, ctx);
    if (!raised.replayed)
      await sql`
        insert into audit.disputes (id, stream_id, kind, transaction_id, payer_id, payee_id, amount_paise, reason, raised_at)
        select e.data->>'disputeId', e.stream_id, e.data->>'kind', e.data->>'transactionId', e.data->>'payerId',
               e.data->>'payeeId', (e.data->>'amountPaise')::bigint, e.data->>'reason', e.recorded_at
          from ledger.events e
         where e.position = ${raised.positions[0] ?? null}::bigint`.execute(trx);
    return raised;
  });
}

async function requireOpenDispute(db: Db, disputeId: string): Promise<DisputeRow> {
  const { rows } = await sql<DisputeRow>`${DISPUTE_SELECT} where s.id = ${disputeId}`.execute(db);
  const row = rows[0];
  if (!row) throw new ApprovalRejection('dispute_not_found', 'No such dispute');
  if (row.status !== 'open') throw new LedgerRejection('dispute_not_open', 'This dispute is no longer open');
  return row;
}

/** An admin rejects an open dispute with a reason: the ledger's event, the queue's row and the audit row together. */
export async function rejectDispute(
  deps: { db: Kysely<unknown>; ledger: Ledger },
  disputeId: string,
  reason: string,
  ctx: CommandContext,
): Promise<DisputeResult> {
  const dispute = await requireOpenDispute(deps.db, disputeId);
  return runAudited(deps.db, deps.ledger, async (commands, trx) => {
    const input = { kind: dispute.kind, transactionId: dispute.transaction_id, disputeId, reason };
    const rejected = await commands.rejectDispute(input, ctx);
    if (!rejected.replayed) {
      await sql`
        update audit.disputes set status = 'rejected', decided_by = ${ctx.actorId}, decided_at = now(), decision_reason = ${reason.trim()}
         where id = ${disputeId} and status = 'open'`.execute(trx);
      await recordAdminAction(trx, {
        actorId: ctx.actorId,
        action: 'reject_dispute',
        target: dispute.stream_id,
        reason: reason.trim(),
        details: { disputeId, transactionId: dispute.transaction_id },
      });
    }
    return rejected;
  });
}

/**
 * An admin upholds an open dispute by reversing the payment, through the same rails as any
 * reversal: done now, or filed for a second admin (whose approval runs it later). The dispute
 * closes when the reversal is appended (money-actions.ts closes it), whichever admin runs it.
 */
export async function reverseDisputedPayment(
  deps: AdminMoneyDependencies,
  disputeId: string,
  reason: string,
  ctx: CommandContext,
): Promise<AdminMoneyOutcome> {
  const dispute = await requireOpenDispute(deps.db, disputeId);
  return performAdminMoneyAction(
    deps,
    { action: 'reverse', reversal: { kind: dispute.kind, transactionId: dispute.transaction_id, reason } },
    ctx,
    (approval, commands) => recordUpheld(commands, dispute, reason, approval.id, ctx),
  );
}

/**
 * The decision as a ledger event (DisputeUpheld), so the payer hears of it on the live stream
 * while the reversal waits. In the transaction that files the request: if the append fails,
 * no request is filed either, and the queue cannot say "awaiting approval" without the
 * ledger's event. A repeated uphold of the same filing appends nothing (the refusal comes
 * from the decider, before any write, so the transaction goes on).
 */
async function recordUpheld(
  commands: LedgerCommands,
  dispute: DisputeRow,
  reason: string,
  approvalId: string,
  ctx: CommandContext,
): Promise<void> {
  try {
    await commands.upholdDispute(
      { kind: dispute.kind, transactionId: dispute.transaction_id, disputeId: dispute.id, reason, approvalId },
      ctx,
    );
  } catch (error) {
    if (isLedgerRejection(error) && error.code === 'dispute_already_upheld') return;
    throw error;
  }
}

export interface DisputeListQuery {
  status?: DisputeStatus | undefined;
  limit: number;
}

/** Newest first; `awaiting_approval` is an open dispute with a reversal waiting for a second admin. */
export async function listDisputes(db: Kysely<unknown>, query: DisputeListQuery): Promise<DisputeRecord[]> {
  const status = query.status === 'awaiting_approval' ? 'open' : (query.status ?? null);
  const waiting =
    query.status === 'awaiting_approval'
      ? sql`and a.id is not null`
      : query.status === 'open'
        ? sql`and a.id is null`
        : sql``;
  const { rows } = await sql<DisputeRow>`
    ${DISPUTE_SELECT}
     where (${status}::text is null or s.status = ${status}::text) ${waiting}
     order by s.raised_at desc, s.id desc
     limit ${query.limit}`.execute(db);
  return rows.map(toDisputeRecord);
}

export async function readDispute(db: Kysely<unknown>, disputeId: string): Promise<DisputeRecord | undefined> {
  const { rows } = await sql<DisputeRow>`${DISPUTE_SELECT} where s.id = ${disputeId}`.execute(db);
  return rows[0] ? toDisputeRecord(rows[0]) : undefined;
}

/** The newest dispute of a payment that `accountId` takes part in (payer or payee); undefined when none. */
export async function readDisputeOfPayment(
  db: Kysely<unknown>,
  accountId: string,
  transactionId: string,
): Promise<DisputeRecord | undefined> {
  const { rows } = await sql<DisputeRow>`
    ${DISPUTE_SELECT}
     where s.transaction_id = ${transactionId} and (s.payer_id = ${accountId} or s.payee_id = ${accountId})
     order by s.raised_at desc, s.id desc
     limit 1`.execute(db);
  return rows[0] ? toDisputeRecord(rows[0]) : undefined;
}
