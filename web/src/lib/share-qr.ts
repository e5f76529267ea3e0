/**
 * Saving and sharing the payment QR: the server's PNG (a data URL) as a file download, or
 * through the system share sheet (navigator.share) - with the PNG itself where the browser
 * can share files, else the pay link as text - and a download where there is no share sheet.
 */

export type ShareOutcome = 'shared-file' | 'shared-link' | 'downloaded' | 'cancelled';

export interface QrShare {
  dataUrl: string;
  fileName: string;
  title: string;
  text: string;
  url: string;
}

/** A data URL's bytes as a File (no network: decoded in place). */
export function dataUrlToFile(dataUrl: string, fileName: string): File {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('not a data URL');
  const [, type = 'application/octet-stream', base64, payload = ''] = match;
  const binary = base64 ? atob(payload) : decodeURIComponent(payload);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return new File([bytes], fileName, { type });
}

/** Starts the browser's download of the data URL under `fileName`. */
export function downloadDataUrl(dataUrl: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = dataUrl;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The share sheet with the PNG where files can be shared, else with the link; a download
 * where there is no share sheet (or it refuses). A person closing the sheet is 'cancelled'.
 */
export async function shareQr(share: QrShare): Promise<ShareOutcome> {
  if (typeof navigator.share !== 'function') {
    downloadDataUrl(share.dataUrl, share.fileName);
    return 'downloaded';
  }
  const file = dataUrlToFile(share.dataUrl, share.fileName);
  const withFile = { files: [file], title: share.title, text: share.text };
  try {
    if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
      await navigator.share(withFile);
      return 'shared-file';
    }
    await navigator.share({ title: share.title, text: share.text, url: share.url });
    return 'shared-link';
  } catch (error) {
    if (isAbort(error)) return 'cancelled';
    // NotAllowedError (no user gesture) or a platform refusal: the file is still wanted.
    downloadDataUrl(share.dataUrl, share.fileName);
    return 'downloaded';
  }
}
