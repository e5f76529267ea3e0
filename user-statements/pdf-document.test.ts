/**
 * writeText, as the statement's table cells use it: at a point, within a width, a line mixing
 * Latin and Devanagari runs comes out whole and in both fonts, and text written after it (in
 * the Latin face writeText leaves selected) reads on.
 */
import { describe, expect, it } from 'vitest';
import { pdfText } from '../test/pdf-text.ts';
import { openPdf, writeText } from './pdf-document.ts';

describe('writeText', () => {
  it('sets a cell at a point in both scripts and leaves the Latin face selected', async () => {
    const pdf = await openPdf({ size: 'A4', margin: 40, compress: false, title: 'cell' });
    writeText(pdf.doc, 'Received from मीना कुमारी (UPI)', 'bold', { width: 300 }, { x: 145, y: 300 });
    pdf.doc.text('after');
    const bytes = await pdf.finish();
    const text = pdfText(bytes).replaceAll('\n', '');
    expect(text).toContain('Received from मीना कुमारी (UPI)after');
    const raw = bytes.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansDevanagari-Bold/);
    // The first run starts at the cell's point: x 145, and y 300 from the top of the page.
    expect(raw).toMatch(/1 0 0 -?1 145 [\d.]+ Tm/);
    expect(pdf.doc.y).toBeGreaterThan(300);
  });
});
