/**
 * The text of a PDF that pdfkit wrote, for tests that check what a statement says: each
 * content stream is inflated (FlateDecode) and the hex strings of its text operators (TJ
 * arrays) decoded; one output line per operator. A string in an embedded font (pdfkit's
 * Identity-H subsets: two-byte glyph ids) is decoded through that font's ToUnicode CMap,
 * found from the font name the last Tf operator selected; a string in a built-in font is
 * WinAnsi bytes, read as Latin-1. Not a general PDF reader: enough for our own documents.
 */
import { inflateSync } from 'node:zlib';

interface PdfObject {
  dictionary: string;
  /** The stream's bytes, inflated; absent for an object without a stream. */
  stream?: string;
}

function objects(pdf: Buffer): Map<string, PdfObject> {
  const raw = pdf.toString('latin1');
  const found = new Map<string, PdfObject>();
  const pattern = /(?<!\d)(\d+) 0 obj\b/g;
  for (let match = pattern.exec(raw); match; match = pattern.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endobj', start);
    if (end < 0) break;
    const body = raw.slice(start, end);
    const streamAt = /stream\r?\n/.exec(body);
    const object: PdfObject = { dictionary: streamAt ? body.slice(0, streamAt.index) : body };
    if (streamAt) {
      const from = start + streamAt.index + streamAt[0].length;
      const bytes = pdf.subarray(from, raw.indexOf('endstream', from));
      try {
        object.stream = object.dictionary.includes('/FlateDecode')
          ? inflateSync(bytes).toString('latin1')
          : bytes.toString('latin1');
      } catch {
        // Not a stream we can read (an image): skipped.
      }
    }
    found.set(match[1] ?? '', object);
  }
  return found;
}

/** A ToUnicode CMap as pdfkit writes it: bfrange lines `<start> <end> [<utf16> <utf16> ...]`, and bfchar pairs. */
function parseCmap(cmap: string): Map<number, string> {
  const codes = new Map<number, string>();
  const unicode = (hex: string) =>
    String.fromCharCode(
      ...hex
        .trim()
        .split(/\s+/)
        .map((unit) => Number.parseInt(unit, 16)),
    );
  for (const range of cmap.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g)) {
    const first = Number.parseInt(range[1] ?? '0', 16);
    [...(range[3] ?? '').matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach((entry, index) =>
      codes.set(first + index, unicode(entry[1] ?? '')),
    );
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const pair of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g))
      codes.set(Number.parseInt(pair[1] ?? '0', 16), unicode(pair[2] ?? ''));
  return codes;
}

/** Font resource name (F1, F2 ...) -> its ToUnicode CMap, for the fonts that have one. */
function fontCmaps(all: Map<string, PdfObject>): Map<string, Map<number, string>> {
  const byName = new Map<string, Map<number, string>>();
  for (const object of all.values()) {
    const fontDictionary = /\/Font\s*<<([^>]*)>>/.exec(object.dictionary)?.[1];
    if (!fontDictionary) continue;
    for (const entry of fontDictionary.matchAll(/\/([^\s/]+)\s+(\d+) 0 R/g)) {
      const font = all.get(entry[2] ?? '');
      const cmapId = font && /\/ToUnicode\s+(\d+) 0 R/.exec(font.dictionary)?.[1];
      const cmap = cmapId ? all.get(cmapId)?.stream : undefined;
      if (cmap) byName.set(entry[1] ?? '', parseCmap(cmap));
    }
  }
  return byName;
}

function decode(hex: string, cmap: Map<number, string> | undefined): string {
  if (!cmap) return Buffer.from(hex, 'hex').toString('latin1');
  let text = '';
  for (let at = 0; at + 4 <= hex.length; at += 4) text += cmap.get(Number.parseInt(hex.slice(at, at + 4), 16)) ?? '';
  return text;
}

export function pdfText(pdf: Buffer): string {
  const all = objects(pdf);
  const cmaps = fontCmaps(all);
  const lines: string[] = [];
  // The pages' content streams, in the order the pages were written (not fonts' bytes, which may hold anything).
  const contents = [...all.values()].flatMap((object) =>
    [...object.dictionary.matchAll(/\/Contents\s+(\d+) 0 R/g)].map((ref) => all.get(ref[1] ?? '')?.stream ?? ''),
  );
  for (const stream of contents) {
    let cmap: Map<number, string> | undefined;
    for (const operator of stream.matchAll(/\/([^\s/]+)\s+[\d.]+\s+Tf|\[([^[\]]*)\]\s*TJ/g)) {
      if (operator[1] !== undefined) {
        cmap = cmaps.get(operator[1]);
        continue;
      }
      const hex = [...(operator[2] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1] ?? '').join('');
      lines.push(decode(hex, cmap));
    }
  }
  return lines.join('\n');
}
