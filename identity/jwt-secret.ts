/**
 * The server secret (signs tokens; the OTP pepper and the mail seal key derive from it).
 * JWT_SECRET wins; otherwise, outside production, one is generated at first start and kept
 * in `<DATA_DIR>/jwt-secret` (mode 0600), so tokens survive restarts without configuration.
 * In production a generated secret would differ per container (the worker could not open
 * mail the API sealed), so JWT_SECRET is required there.
 */
import { ProductionRefusal } from '../platform/production.ts';
import { readOrCreateSecretFile } from '../platform/secret-file.ts';

export async function resolveJwtSecret(config: {
  JWT_SECRET?: string | undefined;
  DATA_DIR: string;
  PRODUCTION?: boolean | undefined;
}): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  // Backstop of platform/production.ts's startup check, for a composition root that skipped it.
  if (config.PRODUCTION)
    throw new ProductionRefusal([
      'JWT_SECRET is not set: production mode does not generate one (generate one with: openssl rand -base64 48)',
    ]);
  return readOrCreateSecretFile(config.DATA_DIR, 'jwt-secret');
}
