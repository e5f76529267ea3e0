/**
 * An identification type (spec section 3) in the reader's language. The wire keeps the spec's
 * English value ("Aadhaar Card"); only what is shown is translated. A value the list does not
 * know (an older account's) is shown as stored.
 */
import i18next from 'i18next';
import { IDENTIFICATION_TYPES, type IdentificationType } from '../../../contracts/users.ts';

const WORDS = {
  Passport: 'idTypes.passport',
  "Driver's License": 'idTypes.drivingLicence',
  'National ID': 'idTypes.nationalId',
  'Aadhaar Card': 'idTypes.aadhaar',
  'PAN Card': 'idTypes.pan',
} as const satisfies Record<IdentificationType, string>;

function isIdentificationType(value: string): value is IdentificationType {
  return (IDENTIFICATION_TYPES as readonly string[]).includes(value);
}

export function idTypeLabel(value: string): string {
  return isIdentificationType(value) ? i18next.t(WORDS[value]) : value;
}
