/**
 * What the statement and the receipt PDFs share: pdfkit's document with the two Noto Sans
 * faces registered, collected in memory so the reply carries its length.
 *
 * Text is set in Noto Sans (SIL Open Font License 1.1; the TTFs of the @embedpdf/fonts-latin
 * package, made for embedding in PDFs), as a subset of the glyphs used: the PDF standard fonts
 * have no rupee sign (U+20B9), Noto Sans has it and the Latin text.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';

export const BODY = 'NotoSans';
export const BOLD = 'NotoSans-Bold';

/** Beside the package's entry (dist/): its exports name no font file, so they are found from there. */
const FONT_PACKAGE = '@embedpdf/fonts-latin';
const FONT_FILES = { body: '../fonts/NotoSans-Regular.ttf', bold: '../fonts/NotoSans-Bold.ttf' } as const;

let fontBytes: Promise<{ body: Buffer; bold: Buffer }> | undefined;

/** The two TTFs, read once per process (pdfkit subsets them per document). */
function fonts(): Promise<{ body: Buffer; bold: Buffer }> {
  if (!fontBytes) {
    const entry = path.dirname(createRequire(import.meta.url).resolve(FONT_PACKAGE));
    fontBytes = Promise.all([
      readFile(path.resolve(entry, FONT_FILES.body)),
      readFile(path.resolve(entry, FONT_FILES.bold)),
    ])
      .then(([body, bold]) => ({ body, bold }))
      .catch((error: unknown) => {
        fontBytes = undefined;
        throw error;
      });
  }
  return fontBytes;
}

export interface PdfOptions {
  size: 'A4' | 'A5';
  margin: number;
  /** Off in tests, so the text can be searched in the file. */
  compress: boolean;
  title: string;
}

export interface OpenPdf {
  doc: PDFKit.PDFDocument;
  /** Ends the document and gives its bytes. */
  finish(): Promise<Buffer>;
}

/** A new document in Noto Sans (BODY and BOLD registered), its bytes gathered as it is written. */
export async function openPdf(options: PdfOptions): Promise<OpenPdf> {
  const fontData = await fonts();
  const doc = new PDFDocument({
    size: options.size,
    margin: options.margin,
    compress: options.compress,
    info: { Title: options.title, Author: 'Rupee Wallet' },
  });
  doc.registerFont(BODY, fontData.body);
  doc.registerFont(BOLD, fontData.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return {
    doc,
    finish: async () => {
      doc.end();
      await done;
      return Buffer.concat(chunks);
    },
  };
}
