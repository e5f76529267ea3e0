/**
 * One payment's receipt as a PDF, for its owner to keep or share: both parties, the amount,
 * the note, the time in India Standard Time, the reference (transaction id) and the status.
 * Built from the owner's own history entry (projections' readHistoryEntry), so a receipt
 * says what the history and the payment's page say. Worded in English or Hindi, as the reader
 * reads the web app (names, notes, amounts, times and ids stay as they are). Set in the
 * statement's fonts (./pdf-document.ts): the rupee sign the PDF standard fonts lack, and Hindi.
 */
import type { DocumentLanguage } from '../contracts/fields.ts';
import type { HistoryEntry } from '../projections/index.ts';
import { openPdf, writeText } from './pdf-document.ts';
import { istTime, rupeeText } from './statement-words.ts';

export interface ReceiptPdfRequest {
  entry: HistoryEntry;
  /** The entry's id as the history shows it (`<id>-reversal` for a reversal's row). */
  entryId: string;
  /** English unless the reader chose Hindi. */
  language?: DocumentLanguage;
  /** Off in tests, so the text can be searched in the file. */
  compress?: boolean;
  now?: Date;
}

const RECEIPT_WORDS = {
  en: {
    title: 'Rupee Wallet - Payment receipt',
    amount: 'Amount',
    from: 'From',
    to: 'To',
    note: 'Note',
    time: 'Date and time',
    transactionId: 'Transaction ID',
    status: 'Status',
    statuses: { success: 'Successful', pending: 'Pending', failed: 'Failed' },
    reason: 'Reason',
    reversed: 'Reversed',
    generated: 'Generated',
  },
  // The payment page's words for the same things (paymentDetail in web/src/i18n/resources/hi.ts).
  hi: {
    title: 'Rupee Wallet - भुगतान की रसीद',
    amount: 'राशि',
    from: 'किससे',
    to: 'किसको',
    note: 'नोट',
    time: 'तारीख और समय',
    transactionId: 'लेन-देन आईडी (संदर्भ)',
    status: 'स्थिति',
    statuses: { success: 'सफल', pending: 'लंबित', failed: 'विफल' },
    reason: 'कारण',
    reversed: 'रिवर्स किया गया',
    generated: 'रसीद बनी',
  },
} as const;

type ReceiptWords = (typeof RECEIPT_WORDS)[DocumentLanguage];

/** Who paid whom, from the owner's side of the row: a deposit comes from its funding account. */
function receiptParties(entry: HistoryEntry): { from: string; to: string } {
  const own = entry.ownName;
  const other = entry.row.counterparty_name;
  return entry.row.type === 'debit' ? { from: own, to: other } : { from: other, to: own };
}

function receiptLines(request: ReceiptPdfRequest, words: ReceiptWords): [string, string][] {
  const { row } = request.entry;
  const parties = receiptParties(request.entry);
  const lines: [string, string][] = [
    [words.amount, rupeeText(row.amount_paise)],
    [words.from, parties.from],
    [words.to, parties.to],
    [words.note, row.reference || '-'],
    [words.time, `${istTime(row.created_at)} IST`],
    [words.transactionId, request.entryId],
    [words.status, words.statuses[row.status]],
  ];
  if (row.failure_reason) lines.push([words.reason, row.failure_reason]);
  if (request.entry.reversedAt) lines.push([words.reversed, `${istTime(request.entry.reversedAt)} IST`]);
  return lines;
}

/** The receipt PDF as bytes. */
export async function receiptPdf(request: ReceiptPdfRequest): Promise<Buffer> {
  const pdf = await openPdf({
    size: 'A5',
    margin: 36,
    compress: request.compress ?? true,
    title: `Receipt ${request.entryId}`,
  });
  const { doc } = pdf;
  const words = RECEIPT_WORDS[request.language ?? 'en'];
  doc.fontSize(16);
  writeText(doc, words.title, 'bold');
  doc.moveDown(0.8).fontSize(10);
  for (const [label, value] of receiptLines(request, words)) {
    // One text run per line and script, so the line reads (and is found by a search) as "Label: value".
    writeText(doc, `${label}: ${value}`, 'body');
    doc.moveDown(0.3);
  }
  doc.moveDown().fontSize(8).fillColor('#555555');
  writeText(doc, `${words.generated}: ${istTime(request.now ?? new Date())} IST`, 'body');
  return pdf.finish();
}
