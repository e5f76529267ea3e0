/**
 * The PIN pepper: the key of the peppered PIN verifier (an HMAC kept beside the bcrypt hash
 * so a payment's PIN check need not cost bcrypt). It is its own secret - never derived from
 * JWT_SECRET, never stored in the database - so a database dump alone cannot test PINs
 * against the verifiers. PIN_PEPPER wins; otherwise, outside production, one is generated at
 * first start into `<DATA_DIR>/pin-pepper` (mode 0600). Production requires PIN_PEPPER.
 * Changing it invalidates every verifier made under the old one.
 */
import { ProductionRefusal } from '../platform/production.ts';
import { readOrCreateSecretFile } from '../platform/secret-file.ts';

export async function resolvePinPepper(config: {
  PIN_PEPPER?: string | undefined;
  DATA_DIR: string;
  PRODUCTION?: boolean | undefined;
}): Promise<string> {
  if (config.PIN_PEPPER) return config.PIN_PEPPER;
  // Backstop of platform/production.ts's startup check, for a composition root that skipped it.
  if (config.PRODUCTION)
    throw new ProductionRefusal([
      'PIN_PEPPER is not set: production mode does not generate one (generate one with: openssl rand -base64 48)',
    ]);
  return readOrCreateSecretFile(config.DATA_DIR, 'pin-pepper');
}
