/**
 * The pending deposits as CSV, for an admin to match against the collection account's bank
 * statement: one row per bank-transfer or UPI deposit still waiting, oldest first, with what
 * the payer entered (UPI ID, or account number, IFSC and bank), the reference they were asked
 * to quote and the UPI link's `tr`. Written as the statement CSVs are (user-statements/statement-csv.ts):
 * csv-stringify, a byte order mark for Excel, plain decimal amounts, and every text a
 * customer typed made spreadsheet-safe (no formula injection). Read in keyset batches, so
 * memory holds one batch at a time however long the queue.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { upiTransactionRef } from '../contracts/deposit-instructions.ts';
import { rupeesText } from '../contracts/money.ts';
import { BYTE_ORDER_MARK, CSV_BATCH_ROWS, istTime, spreadsheetSafe } from '../user-statements/index.ts';
import { readPendingDepositRows, toPendingDeposit } from './pending-deposits.ts';

export const PENDING_DEPOSITS_CSV_COLUMNS = [
  'Requested (IST)',
  'Deposit ID',
  'UPI transaction ref (tr)',
  'Customer',
  'Wallet',
  'Method',
  'Amount (₹)',
  'Reference',
  'Payer UPI ID',
  'Payer account number',
  'Payer IFSC',
  'Payer bank',
  'Waiting for a second admin',
] as const;

type Row = Awaited<ReturnType<typeof readPendingDepositRows>>[number];

function csvRow(row: Row): string[] {
  const deposit = toPendingDeposit(row);
  const { payer } = deposit;
  return [
    istTime(row.created_at),
    deposit.depositId,
    upiTransactionRef(deposit.depositId),
    spreadsheetSafe(deposit.ownerName ?? ''),
    deposit.walletId,
    deposit.method,
    rupeesText(row.amount_paise),
    spreadsheetSafe(deposit.reference),
    spreadsheetSafe(payer.upiId ?? ''),
    spreadsheetSafe(payer.accountNumber ?? ''),
    spreadsheetSafe(payer.ifscCode ?? ''),
    spreadsheetSafe(payer.bankName ?? ''),
    deposit.awaitingApproval ? spreadsheetSafe(deposit.awaitingApproval.requestedByName ?? 'yes') : '',
  ];
}

async function* pendingDepositChunks(db: Kysely<unknown>, batchRows: number): AsyncGenerator<string> {
  yield BYTE_ORDER_MARK + stringify([[...PENDING_DEPOSITS_CSV_COLUMNS]]);
  let after: bigint | undefined;
  for (;;) {
    const rows = await readPendingDepositRows(db, after, batchRows);
    if (rows.length > 0) yield stringify(rows.map(csvRow));
    if (rows.length < batchRows) return;
    after = rows.at(-1)?.position;
  }
}

/** The pending deposits as CSV text, batch by batch as the reader consumes it. */
export function pendingDepositsCsv(db: Kysely<unknown>, batchRows = CSV_BATCH_ROWS): Readable {
  return Readable.from(pendingDepositChunks(db, batchRows), { objectMode: false, highWaterMark: 64 * 1024 });
}
