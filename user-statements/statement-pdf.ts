/**
 * A wallet's statement for a period as a PDF (pdfkit), for its owner: the period's summary
 * (opening balance, money in, money out, closing balance; from projection "statement_days")
 * and its lines (every posting with its running balance; read.statement_lines, the same rows
 * as the CSV). Times and days are India Standard Time, as the period is.
 *
 * Bounded: at most MAX_PDF_LINES lines, read in keyset batches; a longer period says so and
 * points to the CSV, which has every line. The document is built in memory (a few hundred
 * kilobytes at the limit) so the reply carries its length.
 *
 * Set in Noto Sans, names and notes in Hindi in Noto Sans Devanagari (./pdf-document.ts). Lines
 * say what the CSV says (./statement-words.ts): IST time, description in people's words, the
 * reference and transaction id, debit or credit, and the running balance.
 */
import type { Kysely } from 'kysely';
import { dayEnd, dayStart } from '../contracts/statements.ts';
import {
  periodSummary,
  readDisplayName,
  readStatementDays,
  readStatementWithReferences,
  readViews,
  type ReadViews,
  type StatementLineWithReference,
} from '../projections/index.ts';
import { BODY, BOLD, openPdf, writeText } from './pdf-document.ts';
import { describeLine, istTime, requestedNote, rupeeText } from './statement-words.ts';

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

const longDay = new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

function dayText(day: string): string {
  return longDay.format(new Date(`${day}T00:00:00Z`));
}

async function statementLines(
  db: ReadViews,
  request: StatementPdfRequest,
): Promise<{
  rows: StatementLineWithReference[];
  more: boolean;
}> {
  const rows: StatementLineWithReference[] = [];
  let after: bigint | undefined;
  while (rows.length <= MAX_PDF_LINES) {
    const batch = await readStatementWithReferences(db, request.accountId, {
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

// The date takes 100 pt: '31 Dec 2025, 12:59 pm' on one line at 8.5 pt, as the CSV writes it.
const COLUMNS = [
  { title: 'Date (IST)', x: 40, width: 100, align: 'left' },
  { title: 'Description', x: 145, width: 170, align: 'left' },
  { title: 'Debit', x: 320, width: 75, align: 'right' },
  { title: 'Credit', x: 400, width: 75, align: 'right' },
  { title: 'Balance', x: 480, width: 75, align: 'right' },
] as const;

const MUTED = '#555555';

function tableHeader(doc: PDFKit.PDFDocument): void {
  const y = doc.y;
  doc.font(BOLD).fontSize(8.5);
  for (const column of COLUMNS) doc.text(column.title, column.x, y, { width: column.width, align: column.align });
  doc
    .moveTo(40, doc.y + 2)
    .lineTo(555, doc.y + 2)
    .stroke();
  doc.moveDown(0.5).font(BODY).fontSize(8.5);
}

/** The description cell: what happened, then the payer's note and the transaction id in small grey type. */
function descriptionCell(doc: PDFKit.PDFDocument, row: StatementLineWithReference, y: number): number {
  const column = COLUMNS[1];
  writeText(doc, describeLine(row) + requestedNote(row), 'body', { width: column.width }, { x: column.x, y });
  doc.fontSize(7.5).fillColor(MUTED);
  if (row.reference)
    writeText(doc, `Ref: ${row.reference}`, 'body', { width: column.width }, { x: column.x, y: doc.y });
  doc.text(`Txn ID: ${row.transaction_id}`, column.x, doc.y, { width: column.width });
  doc.fontSize(8.5).fillColor('black');
  return doc.y;
}

function tableRow(doc: PDFKit.PDFDocument, row: StatementLineWithReference): void {
  if (doc.y > doc.page.height - 80) {
    doc.addPage();
    tableHeader(doc);
  }
  const y = doc.y;
  const out = row.amount_paise < 0n;
  const cells = [
    istTime(row.recorded_at),
    undefined,
    out ? rupeeText(-row.amount_paise) : '',
    out ? '' : rupeeText(row.amount_paise),
    rupeeText(row.balance_after_paise),
  ];
  let bottom = descriptionCell(doc, row, y);
  COLUMNS.forEach((column, index) => {
    const cell = cells[index];
    if (cell === undefined) return;
    doc.text(cell, column.x, y, { width: column.width, align: column.align });
    bottom = Math.max(bottom, doc.y);
  });
  doc.y = bottom + 4;
}

/** The statement PDF as bytes. */
export async function statementPdf(db: Kysely<unknown>, request: StatementPdfRequest): Promise<Buffer> {
  const reads = readViews(db);
  const period = { accountId: request.accountId, from: request.from, to: request.to };
  const [days, name, lines, pdf] = await Promise.all([
    readStatementDays(reads, period),
    readDisplayName(reads, request.accountId),
    statementLines(reads, request),
    openPdf({
      size: 'A4',
      margin: 40,
      compress: request.compress ?? true,
      title: `Statement ${request.from} to ${request.to}`,
    }),
  ]);
  const summary = periodSummary(days);
  const { doc } = pdf;

  doc.font(BOLD).fontSize(18).text('Rupee Wallet - Account statement');
  doc.moveDown(0.3).font(BODY).fontSize(10);
  writeText(doc, `Account holder: ${name ?? request.accountId}`, 'body');
  doc.text(`Account number: ${request.accountId}`);
  doc.text(`Period: ${dayText(request.from)} to ${dayText(request.to)} (India Standard Time)`);
  doc.text(`Generated: ${istTime(request.now ?? new Date())} IST`);
  doc.moveDown();
  doc.font(BOLD).fontSize(11).text('Summary');
  doc.font(BODY).fontSize(10);
  doc.text(`Opening balance: ${rupeeText(summary.openingBalancePaise)}`);
  doc.text(`Money in: ${rupeeText(summary.moneyInPaise)}`);
  doc.text(`Money out: ${rupeeText(summary.moneyOutPaise)}`);
  doc.text(`Closing balance: ${rupeeText(summary.closingBalancePaise)}`);
  doc.text(`Transactions: ${summary.postingsCount.toString()}`);
  doc.moveDown();
  if (lines.rows.length === 0) doc.text('No transactions in this period.');
  else {
    tableHeader(doc);
    for (const row of lines.rows) tableRow(doc, row);
  }
  if (lines.more)
    doc.moveDown().text(`Only the first ${MAX_PDF_LINES} transactions are listed; the CSV download has every one.`, 40);
  return pdf.finish();
}
