/**
 * A receipt between people with Hindi names and a Hindi note: each Devanagari run is set in
 * Noto Sans Devanagari (Noto Sans has none of its letters), so the PDF holds the words, not
 * empty boxes. Read back through the fonts' own ToUnicode maps (test/pdf-text.ts); the words
 * avoid a vowel sign written before its consonant (ि), which a PDF holds in the order it is
 * drawn.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../projections/index.ts';
import { pdfText } from '../test/pdf-text.ts';
import { receiptPdf } from './receipt-pdf.ts';

function entry(): HistoryEntry {
  const at = new Date('2026-11-20T06:30:00Z');
  return {
    row: {
      account_id: 'asha',
      stream_id: 'transfer-t1',
      transaction_id: 't1',
      type: 'debit',
      sender_id: 'asha',
      receiver_id: 'meena',
      counterparty_id: 'meena',
      counterparty_name: 'मीना कुमारी',
      amount_paise: 125_050n,
      reference: 'दूध और राशन November',
      status: 'success',
      method: 'transfer',
      created_at: at,
      updated_at: at,
      tx_id: '1000',
      failure_reason: null,
      position: 7n,
      keyed: false,
    },
    ownName: 'आशा Rao',
    reversedAt: null,
  };
}

describe('a receipt with names and a note in Hindi', () => {
  it('sets the Devanagari runs in Noto Sans Devanagari and the rest in Noto Sans', async () => {
    const pdf = await receiptPdf({ entry: entry(), entryId: 't1', compress: false });
    // One text operator per run of a script, and a vowel sign below its letter is placed (and
    // read back) on its own: the words are whole once the lines are joined.
    const text = pdfText(pdf).replaceAll('\n', '');
    expect(text).toContain('From: आशा Rao');
    expect(text).toContain('To: मीना कुमारी');
    expect(text).toContain('Note: दूध और राशन November');
    expect(text).toContain('Amount: ₹1,250.50');
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansDevanagari/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
  });

  it('is worded in Hindi when asked, the names, note and amount as they are', async () => {
    const pdf = await receiptPdf({ entry: entry(), entryId: 't1', language: 'hi', compress: false });
    const text = pdfText(pdf).replaceAll('\n', '');
    // The labels "from" and "to" (किससे, किसको) begin with such a vowel sign: their names are checked.
    expect(text).toContain(': आशा Rao');
    expect(text).toContain(': मीना कुमारी');
    expect(text).toContain('नोट: दूध और राशन November');
    // The id's label ends in glyphs a PDF maps to no text (a reph, a contextual vowel sign).
    expect(text).toContain('): t1');
    expect(text).toContain('₹1,250.50');
    expect(text).toContain('सफल');
    expect(text).not.toContain('From:');
  });
});
