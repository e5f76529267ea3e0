/**
 * The "where to pay" part of a bank-transfer or UPI deposit's reply: the collection account
 * the server is configured with, the reference to quote, and the UPI link with its QR code
 * (the same QR library and settings as the receive QR of GET /api/users/generate-qr).
 */
import QRCode from 'qrcode';
import {
  upiPayLink,
  upiTransactionRef,
  type CollectionAccount,
  type DepositInstructions,
} from '../contracts/deposit-instructions.ts';
import { rupeesFromPaise } from '../contracts/money.ts';

export async function depositInstructions(
  collection: CollectionAccount,
  deposit: { depositId: string; amountPaise: bigint; reference: string },
): Promise<DepositInstructions> {
  const upiLink = upiPayLink({
    upiId: collection.upiId,
    payeeName: collection.accountName,
    amountPaise: deposit.amountPaise,
    reference: deposit.reference,
    depositId: deposit.depositId,
  });
  return {
    ...collection,
    amount: rupeesFromPaise(deposit.amountPaise),
    reference: deposit.reference,
    upiTransactionRef: upiTransactionRef(deposit.depositId),
    upiLink,
    upiQr: await QRCode.toDataURL(upiLink, { width: 256, margin: 2, errorCorrectionLevel: 'M' }),
  };
}
