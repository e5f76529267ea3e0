/**
 * Where a bank-transfer or UPI deposit is paid: the wallet's collection account (from the
 * server's COLLECTION_* settings), the reference the payer quotes, and a UPI payment link
 * (`upi://pay`, NPCI's deep-link format) that the deposit reply carries with its QR code.
 * One builder, so the server's reply and the tests agree on every character of the link.
 */
import { z } from 'zod';
import { rupeesText } from './money.ts';

/** The wallet's own account that bank-transfer and UPI deposits are paid into. */
export interface CollectionAccount {
  accountName: string;
  accountNumber: string;
  ifsc: string;
  upiId: string;
}

export const depositInstructionsSchema = z.object({
  accountName: z.string().meta({ description: "The collection account's name (the payee)" }),
  accountNumber: z.string(),
  ifsc: z.string(),
  upiId: z.string().meta({ description: "The UPI ID to pay (the link's `pa`)" }),
  amount: z.number().meta({ description: 'Rupees to pay' }),
  reference: z.string().meta({ description: "What the payer quotes with the payment: the deposit's reference" }),
  upiTransactionRef: z
    .string()
    .meta({ description: "The link's `tr`: the deposit id without hyphens (UPI allows 35 characters)" }),
  upiLink: z.string().meta({ description: 'upi://pay?pa=…&pn=…&am=…&cu=INR&tn=<reference>&tr=<deposit id>' }),
  upiQr: z.string().meta({ description: 'The UPI link as a QR code (PNG data URL)' }),
});
export type DepositInstructions = z.output<typeof depositInstructionsSchema>;

/** UPI's `tr` is at most 35 characters; a UUID without its hyphens is 32 and still unique. */
export function upiTransactionRef(depositId: string): string {
  return depositId.replace(/-/g, '').slice(0, 35);
}

/** UPI apps show the note on one line and cut it short: a long reference is cut at 80. */
const UPI_NOTE_MAX_LENGTH = 80;

/**
 * The `upi://pay` link of a deposit. Parameters are percent-encoded one by one
 * (encodeURIComponent): URLSearchParams writes spaces as `+`, which some UPI apps show as is.
 */
export function upiPayLink(input: {
  upiId: string;
  payeeName: string;
  amountPaise: bigint;
  reference: string;
  depositId: string;
}): string {
  const params: [string, string][] = [
    ['pa', input.upiId],
    ['pn', input.payeeName],
    ['am', rupeesText(input.amountPaise)],
    ['cu', 'INR'],
    ['tn', input.reference.slice(0, UPI_NOTE_MAX_LENGTH)],
    ['tr', upiTransactionRef(input.depositId)],
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}
