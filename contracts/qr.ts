/**
 * Payment QR codes encode `<PUBLIC_URL>/user/<accountNumber>` (spec section 5, "QR content").
 */
export const ACCOUNT_URL_PATTERN = /\/user\/([a-zA-Z0-9_-]+)(?:\/|\?|$)/;

export const INVALID_QR_MESSAGE = "No valid QR code found in the image or QR code doesn't contain a valid account URL";

export function accountFromQrText(text: string): string | null {
  return ACCOUNT_URL_PATTERN.exec(text)?.[1] ?? null;
}

/**
 * The QR's text; with a handle, `?handle=asha%40wallet` after the account number, which the
 * spec's pattern still reads (it stops at the `?`), so a payer's app can show how they pay.
 */
export function accountUrl(publicUrl: string, accountNumber: string, handle?: string | null): string {
  const url = `${publicUrl.replace(/(?<!\/)\/+$/, '')}/user/${accountNumber}`;
  return handle ? `${url}?handle=${encodeURIComponent(handle)}` : url;
}
