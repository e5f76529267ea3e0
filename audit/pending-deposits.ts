/**
 * Pending deposits review: bank-transfer and UPI deposits waiting for an admin to settle or
 * fail them (read.history rows of type deposit, status pending; a partial index from
 * migrations/0001_baseline.ts keeps this a small scan). Card deposits are left to the provider's webhook.
 * Each row carries what the payer entered (the request event's own details, looked up by its
 * stream: the history row does not keep them) and the settlement waiting for a second admin,
 * if one is filed - what an admin needs to match the deposit against a bank statement.
 */
import { sql, type Kysely } from 'kysely';
import type { LedgerEventType } from '../ledger/index.ts';
import type { DepositPayer, PendingDeposit, PendingDepositPage } from '../contracts/admin.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import { keysetPage, type PageRequest } from './paging.ts';

interface PendingDepositRow {
  transaction_id: string;
  account_id: string;
  display_name: string | null;
  method: string;
  amount_paise: bigint;
  reference: string;
  created_at: Date;
  position: bigint;
  details: Record<string, unknown> | null;
  approval_id: string | null;
  approval_requested_by: string | null;
  approval_requested_by_name: string | null;
  approval_requested_at: Date | null;
}

/** Rows after `after`, oldest first, at most `limit`. */
export async function readPendingDepositRows(
  db: Kysely<unknown>,
  after: bigint | undefined,
  limit: number,
): Promise<PendingDepositRow[]> {
  const { rows } = await sql<PendingDepositRow>`
    select h.transaction_id, h.account_id, d.display_name, h.method, h.amount_paise, h.reference, h.created_at, h.position,
           e.data->'details' as details,
           a.id as approval_id, a.requested_by as approval_requested_by, r.display_name as approval_requested_by_name,
           a.requested_at as approval_requested_at
      from read.history h
      left join read.directory d on d.account_id = h.account_id
      left join lateral (select e.data from ledger.events e
                          where e.stream_id = h.stream_id and e.type = ${sql.lit('DepositRequested' satisfies LedgerEventType)}
                          order by e.stream_version limit 1) e on true
      left join audit.approval_requests a on a.target = h.stream_id and a.state = 'pending'
      left join read.directory r on r.account_id = a.requested_by
     where h.status = 'pending' and h.type = 'deposit' and h.method in ('bank_transfer', 'upi')
       and (${after ?? null}::bigint is null or h.position > ${after ?? null}::bigint)
     order by h.position
     limit ${limit}`.execute(db);
  return rows;
}

function detail(details: Record<string, unknown> | null, key: string): string | null {
  const value = details?.[key];
  return typeof value === 'string' ? value : null;
}

function payerOf(details: Record<string, unknown> | null): DepositPayer {
  return {
    upiId: detail(details, 'upiId'),
    accountNumber: detail(details, 'accountNumber'),
    ifscCode: detail(details, 'ifscCode'),
    bankName: detail(details, 'bankName'),
  };
}

export function toPendingDeposit(row: PendingDepositRow): PendingDeposit {
  return {
    depositId: row.transaction_id,
    walletId: row.account_id,
    ownerName: row.display_name,
    method: row.method,
    amount: rupeesFromPaise(row.amount_paise),
    reference: row.reference,
    requestedAt: row.created_at.toISOString(),
    position: String(row.position),
    payer: payerOf(row.details),
    awaitingApproval:
      row.approval_id && row.approval_requested_by && row.approval_requested_at
        ? {
            approvalId: row.approval_id,
            requestedBy: row.approval_requested_by,
            requestedByName: row.approval_requested_by_name,
            requestedAt: row.approval_requested_at.toISOString(),
          }
        : null,
  };
}

export async function listPendingDeposits(db: Kysely<unknown>, page: PageRequest): Promise<PendingDepositPage> {
  const rows = await readPendingDepositRows(db, page.after, page.limit + 1);
  const { items, next } = keysetPage(rows, page.limit, (row) => row.position, toPendingDeposit);
  return { items, nextAfter: next };
}
