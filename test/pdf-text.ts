/**
 * The text of a PDF that pdfkit wrote with its built-in fonts, for tests that check what a
 * statement says: each content stream is inflated (FlateDecode) and the hex strings of its
 * text operators (TJ arrays) decoded; one output line per operator. Not a general PDF
 * reader: enough for our own documents.
 */
import { inflateSync } from 'node:zlib';

function streams(pdf: Buffer): string[] {
  const texts: string[] = [];
  const raw = pdf.toString('latin1');
  // The end of each stream's dictionary; the dictionary is what its object holds before it.
  const pattern = />>\s*stream\r?\n/g;
  for (let match = pattern.exec(raw); match; match = pattern.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const dictionary = raw.slice(raw.lastIndexOf(' obj', match.index), match.index);
    const body = pdf.subarray(start, end);
    try {
      texts.push(dictionary.includes('/FlateDecode') ? inflateSync(body).toString('latin1') : body.toString('latin1'));
    } catch {
      // Not a content stream we can read (a font or an image): skipped.
    }
  }
  return texts;
}

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const content of streams(pdf)) {
    for (const operator of content.matchAll(/\[([^[\]]*)\]\s*TJ/g)) {
      const hex = [...(operator[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1] ?? '').join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return lines.join('\n');
}
