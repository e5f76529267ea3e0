/**
 * A wallet's statement for a period as a PDF (pdfkit), for its owner: the period's summary
 * (opening balance, money in, money out, closing balance; from projection "statements") and
 * its lines (every posting with its running balance; read.statements, the same rows as the
 * CSV). Times and days are India Standard Time, as the period is.
 *
 * Bounded: at most MAX_PDF_LINES lines, read in keyset batches; a longer period says so and
 * points to the CSV, which has every line. The document is built in memory (a few hundred
 * kilobytes at the limit) so the reply carries its length.
 *
 * The built-in PDF fonts have no rupee sign, so amounts read "INR 1,00,000.00".
 */
import PDFDocument from 'pdfkit';
import type { Kysely, Selectable } from 'kysely';
import { dayEnd, dayStart, STATEMENT_TIME_ZONE } from '../contracts/statements.ts';
import { tablesView } from '../platform/database.ts';
import {
  periodSummary,
  readDisplayName,
  readStatement,
  readStatementDays,
  type ReadTables,
  type StatementRow,
} from '../projections/index.ts';

export const MAX_PDF_LINES = 2_000;
const BATCH_ROWS = 500;

export interface StatementPdfRequest {
  accountId: string;
  /** 'YYYY-MM-DD', Kolkata days, both included. */
  from: string;
  to: string;
  /** Off in tests, so the text can be searched in the file. */
  compress?: boolean;
  now?: Date;
}

const DESCRIPTIONS: Record<string, string> = {
  DepositSettled: 'Deposit',
  TransferCompleted: 'Transfer',
  MoneyRequestAccepted: 'Money request paid',
  TransferReversed: 'Reversal of a transfer',
  DepositReversed: 'Reversal of a deposit',
  MoneyRequestPaymentReversed: 'Reversal of a request payment',
};

const enIn = new Intl.NumberFormat('en-IN');

/** "INR 1,00,000.50" / "-INR 12.05": exact from paise (the whole part grouped as a bigint). */
export function inr(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const absolute = paise < 0n ? -paise : paise;
  return `${sign}INR ${enIn.format(absolute / 100n)}.${(absolute % 100n).toString().padStart(2, '0')}`;
}

/** Intl output with plain spaces: the built-in fonts lack the narrow no-break space ICU puts before "am". */
function plain(text: string): string {
  return text.replace(/[\u202f\u00a0]/g, ' ');
}

const lineTime = new Intl.DateTimeFormat('en-IN', {
  timeZone: STATEMENT_TIME_ZONE,
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const longDay = new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

function dayText(day: string): string {
  return plain(longDay.format(new Date(`${day}T00:00:00Z`)));
}

async function statementLines(
  db: Kysely<ReadTables>,
  request: StatementPdfRequest,
): Promise<{
  rows: Selectable<StatementRow>[];
  more: boolean;
}> {
  const rows: Selectable<StatementRow>[] = [];
  let after: bigint | undefined;
  while (rows.length <= MAX_PDF_LINES) {
    const batch = await readStatement(db, request.accountId, {
      since: dayStart(request.from),
      until: dayEnd(request.to),
      afterSequence: after,
      limit: BATCH_ROWS,
    });
    rows.push(...batch);
    if (batch.length < BATCH_ROWS) break;
    after = batch.at(-1)?.sequence;
  }
  return { rows: rows.slice(0, MAX_PDF_LINES), more: rows.length > MAX_PDF_LINES };
}

const COLUMNS = [
  { title: 'Date (IST)', x: 40, width: 105, align: 'left' },
  { title: 'Description', x: 150, width: 175, align: 'left' },
  { title: 'Amount', x: 330, width: 110, align: 'right' },
  { title: 'Balance', x: 445, width: 110, align: 'right' },
] as const;

function tableHeader(doc: PDFKit.PDFDocument): void {
  const y = doc.y;
  doc.font('Helvetica-Bold').fontSize(9);
  for (const column of COLUMNS) doc.text(column.title, column.x, y, { width: column.width, align: column.align });
  doc
    .moveTo(40, doc.y + 2)
    .lineTo(555, doc.y + 2)
    .stroke();
  doc.moveDown(0.5).font('Helvetica').fontSize(9);
}

function tableRow(doc: PDFKit.PDFDocument, row: Selectable<StatementRow>): void {
  if (doc.y > doc.page.height - 70) {
    doc.addPage();
    tableHeader(doc);
  }
  const y = doc.y;
  const description = [DESCRIPTIONS[row.event_type] ?? row.event_type, row.counterparty_name]
    .filter(Boolean)
    .join(' - ');
  const cells = [
    plain(lineTime.format(row.recorded_at)),
    description,
    inr(row.amount_paise),
    inr(row.balance_after_paise),
  ];
  let bottom = y;
  COLUMNS.forEach((column, index) => {
    doc.text(cells[index] ?? '', column.x, y, { width: column.width, align: column.align });
    bottom = Math.max(bottom, doc.y);
  });
  doc.y = bottom + 3;
}

/** The statement PDF as bytes. */
export async function statementPdf(db: Kysely<unknown>, request: StatementPdfRequest): Promise<Buffer> {
  const reads = tablesView<ReadTables>(db);
  const period = { accountId: request.accountId, from: request.from, to: request.to };
  const [days, name, lines] = await Promise.all([
    readStatementDays(reads, period),
    readDisplayName(reads, request.accountId),
    statementLines(reads, request),
  ]);
  const summary = periodSummary(days);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    compress: request.compress ?? true,
    info: { Title: `Statement ${request.from} to ${request.to}`, Author: 'Rupee Wallet' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text('Rupee Wallet - Account statement');
  doc.moveDown(0.3).font('Helvetica').fontSize(10);
  doc.text(`Account holder: ${name ?? request.accountId}`);
  doc.text(`Account number: ${request.accountId}`);
  doc.text(`Period: ${dayText(request.from)} to ${dayText(request.to)} (India Standard Time)`);
  doc.text(`Generated: ${plain(lineTime.format(request.now ?? new Date()))} IST`);
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(11).text('Summary');
  doc.font('Helvetica').fontSize(10);
  doc.text(`Opening balance: ${inr(summary.openingBalancePaise)}`);
  doc.text(`Money in: ${inr(summary.moneyInPaise)}`);
  doc.text(`Money out: ${inr(summary.moneyOutPaise)}`);
  doc.text(`Closing balance: ${inr(summary.closingBalancePaise)}`);
  doc.text(`Transactions: ${summary.postingsCount.toString()}`);
  doc.moveDown();
  if (lines.rows.length === 0) doc.text('No transactions in this period.');
  else {
    tableHeader(doc);
    for (const row of lines.rows) tableRow(doc, row);
  }
  if (lines.more)
    doc.moveDown().text(`Only the first ${MAX_PDF_LINES} transactions are listed; the CSV download has every one.`, 40);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
