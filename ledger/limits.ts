/**
 * Business limits of the product (spec section 9), in paise and characters: the one place
 * they are written. The ledger re-checks them so no caller can go around them; contracts/
 * imports this file (and only this file of the ledger: constants, no I/O, so the web bundle
 * stays small) so the API and the web forms check the same numbers first, with the spec's
 * messages.
 */
import { rupees, type Paise } from './money.ts';

export const MIN_TRANSFER_PAISE: Paise = rupees(1);
export const MIN_DEPOSIT_PAISE: Paise = rupees(1);
export const MAX_DEPOSIT_PAISE: Paise = rupees(100_000);
/** Requests: "greater than 0", at most 10,00,000. */
export const MIN_REQUEST_PAISE: Paise = 1n;
export const MAX_REQUEST_PAISE: Paise = rupees(1_000_000);
/** What the ledger accepts for any reference (and a money request's, on the wire). */
export const MAX_REFERENCE_LENGTH = 500;
/** The forms' tighter limit for transfer and deposit references (spec): the API refuses longer ones first. */
export const MAX_PAYMENT_REFERENCE_LENGTH = 200;
