/**
 * Pending deposits review: bank-transfer and UPI deposits waiting for an admin to settle or
 * fail them (read.history rows of type deposit, status pending; a partial index from
 * migrations/0001_baseline.ts keeps this a small scan). Card deposits are left to the provider's webhook.
 */
import { sql, type Kysely } from 'kysely';
import type { PendingDepositPage } from '../contracts/admin.ts';
import { rupeesFromPaise } from '../contracts/money.ts';
import { keysetPage, type PageRequest } from './paging.ts';

export async function listPendingDeposits(db: Kysely<unknown>, page: PageRequest): Promise<PendingDepositPage> {
  const { rows } = await sql<{
    transaction_id: string;
    account_id: string;
    display_name: string | null;
    method: string;
    amount_paise: bigint;
    reference: string;
    created_at: Date;
    position: bigint;
  }>`
    select h.transaction_id, h.account_id, d.display_name, h.method, h.amount_paise, h.reference, h.created_at, h.position
      from read.history h left join read.directory d on d.account_id = h.account_id
     where h.status = 'pending' and h.type = 'deposit' and h.method in ('bank_transfer', 'upi')
       and (${page.after ?? null}::bigint is null or h.position > ${page.after ?? null}::bigint)
     order by h.position
     limit ${page.limit + 1}`.execute(db);
  const { items, next } = keysetPage(
    rows,
    page.limit,
    (row) => row.position,
    (row) => ({
      depositId: row.transaction_id,
      walletId: row.account_id,
      ownerName: row.display_name,
      method: row.method,
      amount: rupeesFromPaise(row.amount_paise),
      reference: row.reference,
      requestedAt: row.created_at.toISOString(),
      position: String(row.position),
    }),
  );
  return { items, nextAfter: next };
}
