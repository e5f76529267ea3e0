/**
 * The identity check an admin makes before activating an account (issue 41 item 2): how an ID
 * number is masked on the wire, the confirmation the activation carries, and the audited
 * reveal of the full number. The full number leaves the server only through the reveal
 * (POST /api/admin/users/:userId/identification/reveal), never in a user record.
 */
import { z } from 'zod';
import { boundedText } from './fields.ts';

/** The mask character: ASCII, so every client (and a screen reader) shows the same thing. */
const MASK = 'X';

/** How many of the number's last letters and digits stay readable at most. */
const VISIBLE_TAIL = 4;

/**
 * Masks every letter and digit but the last four, keeping spaces and dashes where they are
 * ("1234 5678 9012" -> "XXXX XXXX 9012", "ABCDE1234F" -> "XXXXXX234F": the masked Aadhaar
 * format people know). A number of fewer than eight letters and digits keeps at most half of
 * them readable, so a short number is never shown whole.
 */
export function maskIdentificationNumber(full: string): string {
  const significant = full.replace(/[^A-Za-z0-9]/g, '').length;
  const visible = Math.min(VISIBLE_TAIL, Math.floor(significant / 2));
  let toMask = significant - visible;
  return full.replace(/[A-Za-z0-9]/g, (character) => {
    if (toMask === 0) return character;
    toMask -= 1;
    return MASK;
  });
}

/** The text a web form's checkbox states and the audit entry repeats (English: the audit trail's language). */
export const DOCUMENT_CHECK_STATEMENT = 'I have checked the identity document against these details';

/** Refusal of an activation our web form sent without the confirmation ticked. */
export const DOCUMENT_CHECK_REQUIRED_MESSAGE = 'Confirm that you have checked the identity document before activating';

/**
 * The optional field of update-user-verified-status: `true` when the admin confirmed the
 * document check. The spec's client never sends it (its activation is recorded as made
 * without one, decision 0012); `false` with an activation is refused.
 */
export const documentCheckedField = z
  .boolean({ error: 'documentChecked must be true or false' })
  .optional()
  .meta({ description: 'true: the admin checked the identity document against the details shown' });

/** The reveal's path parameter. */
export const revealParamsSchema = z.object({ userId: boundedText({ max: 64 }).min(1) });

/** The full ID number, answered only by the audited reveal (admins). */
export const revealedIdentificationSchema = z.object({
  userId: z.string(),
  identification: z.string().nullable(),
  identificationNumber: z.string().nullable().meta({ description: 'The full number, as registered' }),
});
export type RevealedIdentification = z.output<typeof revealedIdentificationSchema>;
