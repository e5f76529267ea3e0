/**
 * A payment refused for its PIN (wrong, locked, reset required) is the PIN field's business:
 * the reason goes under the field, which the caller clears for the next try, instead of a
 * toast that vanishes while the payer is still looking at the same empty field.
 * The API's words stay as the spec says on the wire; English shows them as they are (they
 * carry the attempts left and the lock that follows), Hindi says the same in its own words
 * with the count read out of them.
 */
import i18next from 'i18next';
import { currentLanguage } from '../i18n/i18n.ts';

/** The reply codes that are about the PIN typed, not the payment. */
const PIN_CODES = new Set(['invalid_pin', 'PIN_LOCKED', 'PIN_RESET_REQUIRED']);

/** The reason to show under the PIN field, or undefined when the refusal is not about the PIN. */
export function pinRefusal(reply: { code?: string | undefined; message: string }): string | undefined {
  if (!reply.code || !PIN_CODES.has(reply.code)) return undefined;
  // English is the API's own language, and its words say more (the lock that follows).
  if (currentLanguage() === 'en' && reply.message) return reply.message;
  if (reply.code === 'PIN_LOCKED') return i18next.t('pinRefusal.locked');
  if (reply.code === 'PIN_RESET_REQUIRED') return i18next.t('pinRefusal.resetRequired');
  const attempts = /\b(\d{1,3}) attempts? remaining/.exec(reply.message)?.[1];
  return attempts === undefined ? i18next.t('pinRefusal.wrong') : i18next.t('pinRefusal.attempts', { attempts });
}
