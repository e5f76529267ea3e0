/**
 * The identity check before an activation (issue 41 item 2): what an activation records of
 * the document check, and the reveal of a customer's full ID number. Every user record masks
 * the number (contracts/identity-check.ts); the reveal is the one way to read it whole, admins
 * only, and each reveal is an admin action in the audit trail, written in the same transaction
 * as the read (identity may not import audit/, so the row is written here, as setVerified does).
 */
import { sql, type Kysely } from 'kysely';
import {
  DOCUMENT_CHECK_REQUIRED_MESSAGE,
  DOCUMENT_CHECK_STATEMENT,
  maskIdentificationNumber,
  type RevealedIdentification,
} from '../contracts/identity-check.ts';
import { tablesView } from '../platform/database.ts';
import { IdentityRejection } from './rejections.ts';
import type { IdentityTables } from './tables.ts';

/** What an admin sees and checks of a customer before activating. */
export interface CheckedDetails {
  first_name: string;
  last_name: string;
  contact_no: string | null;
  identification: string | null;
  identification_number: string | null;
  address: string | null;
}

/** The columns `CheckedDetails` is read from. */
export const CHECKED_COLUMNS = [
  'first_name',
  'last_name',
  'contact_no',
  'identification',
  'identification_number',
  'address',
] as const;

export function maskedNumber(full: string | null): string | null {
  return full === null ? null : maskIdentificationNumber(full);
}

/**
 * The audit details of an activation's document check: who checked is the row's actor, what
 * they checked is written here - the details as the admin saw them, the number masked as it
 * was shown. `documentChecked` undefined is the spec's client, which has no confirmation to
 * send: recorded as not confirmed, never refused (decision 0012). `false` is refused.
 */
export function documentCheckRecord(
  details: CheckedDetails,
  documentChecked: boolean | undefined,
): Record<string, unknown> {
  if (documentChecked === false) {
    throw new IdentityRejection('document_check_required', DOCUMENT_CHECK_REQUIRED_MESSAGE);
  }
  if (documentChecked === undefined) return { confirmed: false, via: 'a client without the document check' };
  return {
    confirmed: true,
    statement: DOCUMENT_CHECK_STATEMENT,
    name: `${details.first_name} ${details.last_name}`,
    identification: details.identification,
    identificationNumber: maskedNumber(details.identification_number),
    address: details.address,
    contactNo: details.contact_no,
  };
}

/**
 * The full ID number of a user, for an admin, recorded in the audit trail in the same
 * transaction: no reveal without its row. The row names the type and the masked number,
 * never the number itself.
 */
export async function revealIdentification(
  db: Kysely<unknown>,
  input: { actorId: string; userId: string },
): Promise<RevealedIdentification> {
  return db.transaction().execute(async (trx) => {
    const row = await tablesView<IdentityTables>(trx)
      .selectFrom('identity.users')
      .select(['id', 'identification', 'identification_number'])
      .where('id', '=', input.userId)
      .executeTakeFirst();
    if (!row) throw new IdentityRejection('user_not_found', 'User not found');
    const details = {
      identification: row.identification,
      identificationNumber: maskedNumber(row.identification_number),
    };
    await sql`insert into audit.admin_actions (actor_id, action, target, details)
      values (${input.actorId}, 'reveal_identification', ${row.id}, ${JSON.stringify(details)}::jsonb)`.execute(trx);
    return { userId: row.id, identification: row.identification, identificationNumber: row.identification_number };
  });
}
