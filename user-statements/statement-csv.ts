/**
 * A wallet's own statement as CSV, for its owner to reconcile in a spreadsheet: one row per
 * posting, oldest first, with the time in India Standard Time, what happened in people's
 * words, the note the payer typed, the transaction id the app and the API show, the money
 * out or in, and the running balance after it (the accounts projection's, the same figure
 * as the PDF's). (The admin's export of any account keeps the audit columns:
 * audit/statements.ts, which writes its cells by this file's rules, as the pending deposits'
 * CSV does.)
 *
 * Choices a spreadsheet forces:
 * - Amounts are plain decimals with two paise digits and no thousands separators: a cell
 *   "1,23,456.78" is text to Excel and LibreOffice (and splits on the comma in some
 *   locales), "123456.78" is a number that sums. The rupee sign is in the headers, not the cells.
 * - The file starts with a UTF-8 byte order mark: without it Excel opens a CSV in the
 *   system's legacy code page, and "₹" in the headers (and any name in Devanagari) turns
 *   to mojibake. Every other reader of UTF-8 CSV skips the mark.
 * - Text a user chose (names, notes) is spreadsheet-safe (no formula injection).
 *
 * Read in keyset batches like the admin's export, so memory holds one batch at a time.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { rupeesText } from '../contracts/money.ts';
import { readStatementWithReferences, readViews, type StatementLineWithReference } from '../projections/index.ts';
import { describeLine, istTime, requestedNote } from './statement-words.ts';

export const BYTE_ORDER_MARK = '\uFEFF';

/** Rows per keyset batch, for every CSV that streams (this one and the admins' exports). */
export const CSV_BATCH_ROWS = 2_000;

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, or a leading tab or carriage
 * return) is prefixed with a quote, so it opens as text: display names are chosen by users.
 * Amounts are written by us as plain decimals and stay numbers.
 */
export function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export const PEOPLE_CSV_COLUMNS = [
  'Date (IST)',
  'Description',
  'Reference / note',
  'Transaction ID',
  'Debit (₹)',
  'Credit (₹)',
  'Balance (₹)',
] as const;

export interface OwnStatementRequest {
  accountId: string;
  /** The period's first instant (included) and the instant after its last (excluded). */
  from: Date;
  to: Date;
}

function csvRow(line: StatementLineWithReference): string[] {
  const out = line.amount_paise < 0n;
  return [
    istTime(line.recorded_at),
    spreadsheetSafe(describeLine(line) + requestedNote(line)),
    spreadsheetSafe(line.reference ?? ''),
    spreadsheetSafe(line.transaction_id),
    out ? rupeesText(-line.amount_paise) : '',
    out ? '' : rupeesText(line.amount_paise),
    rupeesText(line.balance_after_paise),
  ];
}

async function* ownStatementChunks(
  db: Kysely<unknown>,
  request: OwnStatementRequest,
  batchRows: number,
): AsyncGenerator<string> {
  yield BYTE_ORDER_MARK + stringify([[...PEOPLE_CSV_COLUMNS]]);
  const reads = readViews(db);
  let after: bigint | undefined;
  for (;;) {
    const lines = await readStatementWithReferences(reads, request.accountId, {
      since: request.from,
      until: request.to,
      afterSequence: after,
      limit: batchRows,
    });
    if (lines.length > 0) yield stringify(lines.map(csvRow));
    if (lines.length < batchRows) return;
    after = lines.at(-1)?.sequence;
  }
}

/** The owner's statement as CSV text, produced batch by batch as the reader consumes it (backpressure). */
export function ownStatementCsv(
  db: Kysely<unknown>,
  request: OwnStatementRequest,
  batchRows = CSV_BATCH_ROWS,
): Readable {
  return Readable.from(ownStatementChunks(db, request, batchRows), { objectMode: false, highWaterMark: 64 * 1024 });
}
