/**
 * One payment's receipt as a PDF, for its owner to keep or share: both parties, the amount,
 * the note, the time in India Standard Time, the reference (transaction id) and the status.
 * Built from the owner's own history entry (projections' readHistoryEntry), so a receipt
 * says what the history and the payment's page say. Set in the statement's fonts
 * (./pdf-document.ts): the rupee sign the PDF standard fonts lack, and names in Hindi.
 */
import type { HistoryEntry } from '../projections/index.ts';
import { BODY, BOLD, openPdf, writeText } from './pdf-document.ts';
import { istTime, rupeeText } from './statement-words.ts';

export interface ReceiptPdfRequest {
  entry: HistoryEntry;
  /** The entry's id as the history shows it (`<id>-reversal` for a reversal's row). */
  entryId: string;
  /** Off in tests, so the text can be searched in the file. */
  compress?: boolean;
  now?: Date;
}

const STATUS_WORDS = { success: 'Successful', pending: 'Pending', failed: 'Failed' } as const;

/** Who paid whom, from the owner's side of the row: a deposit comes from its funding account. */
function receiptParties(entry: HistoryEntry): { from: string; to: string } {
  const own = entry.ownName;
  const other = entry.row.counterparty_name;
  return entry.row.type === 'debit' ? { from: own, to: other } : { from: other, to: own };
}

function receiptLines(request: ReceiptPdfRequest): [string, string][] {
  const { row } = request.entry;
  const parties = receiptParties(request.entry);
  const lines: [string, string][] = [
    ['Amount', rupeeText(row.amount_paise)],
    ['From', parties.from],
    ['To', parties.to],
    ['Note', row.reference || '-'],
    ['Date and time', `${istTime(row.created_at)} IST`],
    ['Transaction ID', request.entryId],
    ['Status', STATUS_WORDS[row.status]],
  ];
  if (row.failure_reason) lines.push(['Reason', row.failure_reason]);
  if (request.entry.reversedAt) lines.push(['Reversed', `${istTime(request.entry.reversedAt)} IST`]);
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
  doc.font(BOLD).fontSize(16).text('Rupee Wallet - Payment receipt');
  doc.moveDown(0.8).fontSize(10);
  for (const [label, value] of receiptLines(request)) {
    // One text run per line and script, so the line reads (and is found by a search) as "Label: value".
    writeText(doc, `${label}: ${value}`, 'body');
    doc.moveDown(0.3);
  }
  doc.moveDown().font(BODY).fontSize(8).fillColor('#555555');
  doc.text(`Generated: ${istTime(request.now ?? new Date())} IST`);
  return pdf.finish();
}
