/**
 * Server secrets generated for local use: one random value per file under the data
 * directory (mode 0600), written at first start and read on every start after, so tokens
 * and verifiers survive restarts without configuration. Production mode never gets here:
 * there every process must be given the same secret (platform/production.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIN_SECRET_LENGTH } from '../platform/config.ts';
const GENERATED_SECRET_BYTES = 48;

export async function readOrCreateSecretFile(dataDir: string, name: string): Promise<string> {
  const file = join(dataDir, name);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(GENERATED_SECRET_BYTES).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Already there (a previous start, or a second process racing this one): use it.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  await chmod(file, 0o600);
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`${file} holds a secret shorter than ${MIN_SECRET_LENGTH} characters`);
  return secret;
}
