/**
 * What the statement and the receipt PDFs share: pdfkit's document with its fonts registered,
 * collected in memory so the reply carries its length, and text that may hold people's words.
 *
 * Text is set in Noto Sans (SIL Open Font License 1.1; the TTFs of the @embedpdf/fonts-latin
 * package, made for embedding in PDFs), as a subset of the glyphs used: the PDF standard fonts
 * have no rupee sign (U+20B9), Noto Sans has it and the Latin text. Names and notes are the
 * users' own and may be in Hindi: Noto Sans has no Devanagari, so their Devanagari runs are set
 * in Noto Sans Devanagari (the same licence; the WOFF files of @fontsource/noto-sans-devanagari,
 * which the web app's pages use too), shaped by pdfkit (fontkit's Indic shaper: conjuncts,
 * vowel signs before their consonant).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';

export const BODY = 'NotoSans';
export const BOLD = 'NotoSans-Bold';
const BODY_DEVANAGARI = 'NotoSansDevanagari';
const BOLD_DEVANAGARI = 'NotoSansDevanagari-Bold';

export type Face = 'body' | 'bold';
const FACES: Record<Face, { latin: string; devanagari: string }> = {
  body: { latin: BODY, devanagari: BODY_DEVANAGARI },
  bold: { latin: BOLD, devanagari: BOLD_DEVANAGARI },
};

/**
 * Each font file, found from its package's entry (neither package's exports name its files).
 * The Devanagari faces are WOFF, not WOFF2: pdfkit subsets a WOFF, and embedded a WOFF2 whole
 * (189 kB for a name).
 */
const FONT_FILES = {
  [BODY]: ['@embedpdf/fonts-latin', '../fonts/NotoSans-Regular.ttf'],
  [BOLD]: ['@embedpdf/fonts-latin', '../fonts/NotoSans-Bold.ttf'],
  [BODY_DEVANAGARI]: [
    '@fontsource/noto-sans-devanagari/devanagari-400.css',
    'files/noto-sans-devanagari-devanagari-400-normal.woff',
  ],
  [BOLD_DEVANAGARI]: [
    '@fontsource/noto-sans-devanagari/devanagari-700.css',
    'files/noto-sans-devanagari-devanagari-700-normal.woff',
  ],
} as const;

let fontBytes: Promise<[string, Buffer][]> | undefined;

/** The font files, read once per process (pdfkit subsets them per document). */
function fonts(): Promise<[string, Buffer][]> {
  if (!fontBytes) {
    const require = createRequire(import.meta.url);
    fontBytes = Promise.all(
      Object.entries(FONT_FILES).map(async ([name, [entry, file]]) => {
        const bytes = await readFile(path.resolve(path.dirname(require.resolve(entry)), file));
        return [name, bytes] as [string, Buffer];
      }),
    ).catch((error: unknown) => {
      fontBytes = undefined;
      throw error;
    });
  }
  return fontBytes;
}

/** Devanagari letters, signs and extensions, with the joiners that shape them. */
const DEVANAGARI_RUN = /([\u0900-\u097F\u1CD0-\u1CFF\uA8E0-\uA8FF\u200C\u200D]+)/;

/**
 * Text that may hold people's words (names, notes): each Devanagari run in the Devanagari face,
 * the rest in Noto Sans, as one paragraph (pdfkit's continued text: it wraps as one). At a
 * point when `at` is given, else where the document is. Leaves the face's Latin font selected.
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  face: Face,
  options: PDFKit.Mixins.TextOptions = {},
  at?: { x: number; y: number },
): void {
  const runs = text.split(DEVANAGARI_RUN).filter((run) => run !== '');
  if (runs.length === 0) runs.push('');
  runs.forEach((run, index) => {
    const devanagari = DEVANAGARI_RUN.test(run);
    doc.font(devanagari ? FACES[face].devanagari : FACES[face].latin);
    const runOptions = { ...options, continued: index < runs.length - 1 };
    if (index === 0 && at) doc.text(run, at.x, at.y, runOptions);
    else doc.text(run, runOptions);
  });
  doc.font(FACES[face].latin);
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

/** A new document with the fonts registered (BODY and BOLD, and writeText's), its bytes gathered as it is written. */
export async function openPdf(options: PdfOptions): Promise<OpenPdf> {
  const fontData = await fonts();
  const doc = new PDFDocument({
    size: options.size,
    margin: options.margin,
    compress: options.compress,
    info: { Title: options.title, Author: 'Rupee Wallet' },
  });
  for (const [name, bytes] of fontData) doc.registerFont(name, bytes);
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
