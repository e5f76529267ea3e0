/**
 * Values generated for local use and kept in a file: one random value per file under the
 * data directory (mode 0600), written at first start and read on every start after, so
 * tokens, verifiers and the embedded database's login survive restarts without
 * configuration. Production mode never gets here for server secrets: there every process
 * must be given the same secret (platform/production.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIN_SECRET_LENGTH } from './config.ts';

export interface SecretFileOptions {
  /** Random bytes to generate (written base64url: nothing to escape in a URL or a header). */
  bytes: number;
  /** A shorter value in the file (edited by hand, truncated) is refused. */
  minLength: number;
  /** How the error names the value. */
  kind: 'secret' | 'password';
}

const SERVER_SECRET: SecretFileOptions = { bytes: 48, minLength: MIN_SECRET_LENGTH, kind: 'secret' };

export async function readOrCreateSecretFile(
  dataDir: string,
  name: string,
  options: SecretFileOptions = SERVER_SECRET,
): Promise<string> {
  const file = join(dataDir, name);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(options.bytes).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Already there (a previous start, or a second process racing this one): use it.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  await chmod(file, 0o600);
  const value = (await readFile(file, 'utf8')).trim();
  if (value.length < options.minLength)
    throw new Error(`${file} holds a ${options.kind} shorter than ${options.minLength} characters`);
  return value;
}
