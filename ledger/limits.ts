/**
 * Business limits of the product (spec section 9), in paise. The API checks them first to
 * give the spec's messages; the ledger re-checks them so no caller can go around them.
 */
import { rupees, type Paise } from './money.ts';

export const MIN_TRANSFER_PAISE: Paise = rupees(1);
export const MIN_DEPOSIT_PAISE: Paise = rupees(1);
export const MAX_DEPOSIT_PAISE: Paise = rupees(100_000);
/** Requests: "greater than 0", at most 10,00,000. */
export const MIN_REQUEST_PAISE: Paise = 1n;
export const MAX_REQUEST_PAISE: Paise = rupees(1_000_000);
export const MAX_REFERENCE_LENGTH = 500;
