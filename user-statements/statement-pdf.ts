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
 * Worded in English or Hindi, as the reader reads the web app (names, notes, amounts, times and
 * ids stay as they are); set in Noto Sans, with Hindi in Noto Sans Devanagari
 * (./pdf-document.ts). Lines say what the CSV says (./statement-words.ts): IST time,
 * description in people's words, the reference and transaction id, debit or credit, and the
 * running balance.
 */
import type { Kysely } from 'kysely';
import type { DocumentLanguage } from '../contracts/fields.ts';
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
import { BODY, openPdf, writeText } from './pdf-document.ts';
import { describeLine, istTime, requestedNote, rupeeText } from './statement-words.ts';

export const MAX_PDF_LINES = 2_000;
const BATCH_ROWS = 500;

export interface StatementPdfRequest {
  accountId: string;
  /** 'YYYY-MM-DD', Kolkata days, both included. */
  from: string;
  to: string;
  /** English unless the reader chose Hindi. */
  language?: DocumentLanguage;
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

/** The statement's own words in each of the web app's languages (the lines': ./statement-words.ts). */
const STATEMENT_WORDS = {
  en: {
    title: 'Rupee Wallet - Account statement',
    holder: 'Account holder',
    accountNumber: 'Account number',
    period: (from: string, to: string) => `Period: ${from} to ${to} (India Standard Time)`,
    generated: 'Generated',
    summary: 'Summary',
    opening: 'Opening balance',
    moneyIn: 'Money in',
    moneyOut: 'Money out',
    closing: 'Closing balance',
    transactions: 'Transactions',
    columns: ['Date (IST)', 'Description', 'Debit', 'Credit', 'Balance'],
    reference: 'Ref',
    transactionId: 'Txn ID',
    none: 'No transactions in this period.',
    more: (limit: number) => `Only the first ${limit} transactions are listed; the CSV download has every one.`,
  },
  // The dashboard's and the payment page's words where they say the same (web/src/i18n/resources/hi.ts).
  hi: {
    title: 'Rupee Wallet - खाते का स्टेटमेंट',
    holder: 'खाताधारक',
    accountNumber: 'खाता संख्या',
    period: (from: string, to: string) => `अवधि: ${from} से ${to} तक (भारतीय मानक समय)`,
    generated: 'स्टेटमेंट बना',
    summary: 'सारांश',
    opening: 'शुरुआती बैलेंस',
    moneyIn: 'आए पैसे',
    moneyOut: 'गए पैसे',
    closing: 'अंतिम बैलेंस',
    transactions: 'लेन-देन',
    columns: ['तारीख (IST)', 'विवरण', 'डेबिट', 'क्रेडिट', 'बैलेंस'],
    reference: 'संदर्भ',
    transactionId: 'लेन-देन आईडी',
    none: 'इस अवधि में कोई लेन-देन नहीं।',
    more: (limit: number) => `केवल पहले ${limit} लेन-देन दिखाए गए हैं; CSV डाउनलोड में हर लेन-देन है।`,
  },
} as const;

type StatementWords = (typeof STATEMENT_WORDS)[DocumentLanguage];

// The date takes 100 pt: '31 Dec 2025, 12:59 pm' on one line at 8.5 pt, as the CSV writes it.
const COLUMNS = [
  { x: 40, width: 100, align: 'left' },
  { x: 145, width: 170, align: 'left' },
  { x: 320, width: 75, align: 'right' },
  { x: 400, width: 75, align: 'right' },
  { x: 480, width: 75, align: 'right' },
] as const;

const MUTED = '#555555';

function tableHeader(doc: PDFKit.PDFDocument, words: StatementWords): void {
  const y = doc.y;
  doc.fontSize(8.5);
  COLUMNS.forEach((column, index) =>
    writeText(
      doc,
      words.columns[index] ?? '',
      'bold',
      { width: column.width, align: column.align },
      { x: column.x, y },
    ),
  );
  doc
    .moveTo(40, doc.y + 2)
    .lineTo(555, doc.y + 2)
    .stroke();
  doc.moveDown(0.5).font(BODY).fontSize(8.5);
}

/** The description cell: what happened, then the payer's note and the transaction id in small grey type. */
function descriptionCell(
  doc: PDFKit.PDFDocument,
  row: StatementLineWithReference,
  y: number,
  language: DocumentLanguage,
): number {
  const column = COLUMNS[1];
  const words = STATEMENT_WORDS[language];
  const description = describeLine(row, language) + requestedNote(row, language);
  writeText(doc, description, 'body', { width: column.width }, { x: column.x, y });
  doc.fontSize(7.5).fillColor(MUTED);
  if (row.reference)
    writeText(doc, `${words.reference}: ${row.reference}`, 'body', { width: column.width }, { x: column.x, y: doc.y });
  writeText(
    doc,
    `${words.transactionId}: ${row.transaction_id}`,
    'body',
    { width: column.width },
    { x: column.x, y: doc.y },
  );
  doc.fontSize(8.5).fillColor('black');
  return doc.y;
}

function tableRow(doc: PDFKit.PDFDocument, row: StatementLineWithReference, language: DocumentLanguage): void {
  if (doc.y > doc.page.height - 80) {
    doc.addPage();
    tableHeader(doc, STATEMENT_WORDS[language]);
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
  let bottom = descriptionCell(doc, row, y, language);
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
  const language = request.language ?? 'en';
  const words = STATEMENT_WORDS[language];
  const { doc } = pdf;

  doc.fontSize(18);
  writeText(doc, words.title, 'bold');
  doc.moveDown(0.3).fontSize(10);
  writeText(doc, `${words.holder}: ${name ?? request.accountId}`, 'body');
  writeText(doc, `${words.accountNumber}: ${request.accountId}`, 'body');
  writeText(doc, words.period(dayText(request.from), dayText(request.to)), 'body');
  writeText(doc, `${words.generated}: ${istTime(request.now ?? new Date())} IST`, 'body');
  doc.moveDown().fontSize(11);
  writeText(doc, words.summary, 'bold');
  doc.fontSize(10);
  writeText(doc, `${words.opening}: ${rupeeText(summary.openingBalancePaise)}`, 'body');
  writeText(doc, `${words.moneyIn}: ${rupeeText(summary.moneyInPaise)}`, 'body');
  writeText(doc, `${words.moneyOut}: ${rupeeText(summary.moneyOutPaise)}`, 'body');
  writeText(doc, `${words.closing}: ${rupeeText(summary.closingBalancePaise)}`, 'body');
  writeText(doc, `${words.transactions}: ${summary.postingsCount.toString()}`, 'body');
  doc.moveDown();
  if (lines.rows.length === 0) writeText(doc, words.none, 'body');
  else {
    tableHeader(doc, words);
    for (const row of lines.rows) tableRow(doc, row, language);
  }
  if (lines.more) {
    doc.moveDown();
    writeText(doc, words.more(MAX_PDF_LINES), 'body', {}, { x: 40, y: doc.y });
  }
  return pdf.finish();
}
