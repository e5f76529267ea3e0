/**
 * The embedded server's runtime login (the default when DATABASE_URL is unset): the app,
 * the workers and the CLI connect as `wallet_app`, a member of wallet_runtime, not as the
 * embedded superuser that runs migrations. Its password is generated once and kept in
 * `<DATA_DIR>/database-password` (mode 0600), as identity/jwt-secret.ts keeps the server
 * secret, and set on the role at every start of the embedded server.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const EMBEDDED_RUNTIME_USER = 'wallet_app';
export const EMBEDDED_DATABASE = 'wallet';
const PASSWORD_FILE = 'database-password';
const MIN_PASSWORD_LENGTH = 24;

export async function embeddedRuntimePassword(dataDir: string): Promise<string> {
  const file = join(dataDir, PASSWORD_FILE);
  await mkdir(dataDir, { recursive: true });
  try {
    // base64url: nothing to escape in a connection string.
    await writeFile(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Already there (a previous start, or a second process racing this one): use it.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  await chmod(file, 0o600);
  const password = (await readFile(file, 'utf8')).trim();
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`${file} holds a password shorter than ${MIN_PASSWORD_LENGTH} characters`);
  return password;
}

/** The runtime login's connection string for the embedded server on `port`. */
export function embeddedRuntimeUrl(port: number, password: string): string {
  return `postgres://${EMBEDDED_RUNTIME_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}
