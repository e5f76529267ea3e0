/**
 * The server secret (signs tokens; the OTP pepper and the mail seal key derive from it).
 * JWT_SECRET wins; otherwise one is generated at first start and kept in
 * `<DATA_DIR>/jwt-secret` (mode 0600), so tokens survive restarts without configuration.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MIN_SECRET_LENGTH = 32;

export async function resolveJwtSecret(config: { JWT_SECRET?: string | undefined; DATA_DIR: string }): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = join(config.DATA_DIR, 'jwt-secret');
  await mkdir(config.DATA_DIR, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Already there (a previous start, or a second process racing this one): use it.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  await chmod(file, 0o600);
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`${file} holds a secret shorter than ${MIN_SECRET_LENGTH} characters`);
  return secret;
}
