/**
 * Values generated for local use and kept in a file: one random value per file under the
 * data directory (mode 0600, the directory 0700), written at first start and read on every
 * start after, so tokens, verifiers and the embedded database's login survive restarts
 * without configuration. Production mode never gets here for server secrets: there every
 * process must be given the same secret (platform/production.ts).
 *
 * Whoever can write such a file chooses the secret (a jwt-secret of their own signs tokens
 * for any account), and whoever planted the file a password is written into reads it. So a
 * file is opened without following a symbolic link, and refused - naming the file and the
 * fix - when another user owns it or group or others may write it; it is never "repaired"
 * behind the operator's back.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
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

/** A secret file another local user could have written, or a link to one: the process refuses to use it. */
export class UnsafeSecretFile extends Error {
  readonly file: string;

  constructor(file: string, message: string) {
    super(message);
    this.name = 'UnsafeSecretFile';
    this.file = file;
  }
}

export async function readOrCreateSecretFile(
  dataDir: string,
  name: string,
  options: SecretFileOptions = SERVER_SECRET,
): Promise<string> {
  const file = join(dataDir, name);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, `${randomBytes(options.bytes).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Already there (a previous start, or a second process racing this one): use it.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  // Non-blocking: a FIFO put in its place cannot hang the start (it is then refused as no regular file).
  const { handle, stats } = await openOwnSecretFile(file, constants.O_RDONLY | constants.O_NONBLOCK);
  let value: string;
  try {
    // Readable by others (an older file, a copy made by hand): this user's only from now on.
    if ((stats.mode & 0o077) !== 0) await handle.chmod(0o600);
    value = (await handle.readFile('utf8')).trim();
  } finally {
    await handle.close();
  }
  if (value.length < options.minLength)
    throw new Error(`${file} holds a ${options.kind} shorter than ${options.minLength} characters`);
  return value;
}

/** Writes `value` into `<dataDir>/<name>` (0600), replacing an older file of this user's; returns the path. */
export async function writeSecretFile(dataDir: string, name: string, value: string): Promise<string> {
  const file = join(dataDir, name);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { handle } = await openOwnSecretFile(file, constants.O_WRONLY | constants.O_CREAT, 0o600);
  try {
    await handle.chmod(0o600);
    await handle.truncate(0);
    await handle.writeFile(`${value}\n`);
  } finally {
    await handle.close();
  }
  return file;
}

/** O_NOFOLLOW where the platform has it (not on Windows, where no other check below applies either). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

async function openOwnSecretFile(
  file: string,
  flags: number,
  mode?: number,
): Promise<{ handle: FileHandle; stats: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(file, flags | NO_FOLLOW, mode);
  } catch (error) {
    // ELOOP on Linux and macOS, EMLINK on FreeBSD: the name is a symbolic link.
    const code = (error as { code?: unknown }).code;
    if (code === 'ELOOP' || code === 'EMLINK')
      throw new UnsafeSecretFile(
        file,
        `${file} is a symbolic link: a secret file must be a file of its own (a link can point at a value someone else knows or reads). Replace it with the file itself, or delete it.`,
      );
    throw error;
  }
  try {
    const stats = await handle.stat();
    refuseUnsafe(file, stats);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function refuseUnsafe(file: string, stats: Stats): void {
  if (!stats.isFile()) throw new UnsafeSecretFile(file, `${file} is not a regular file: delete it.`);
  const uid = process.getuid?.();
  // Windows: no owners or mode bits to check.
  if (uid === undefined) return;
  if (stats.uid !== uid) {
    throw new UnsafeSecretFile(
      file,
      `${file} is owned by uid ${stats.uid}, not by this process's user (uid ${uid}): that user could have replaced it. Check it (or delete it), then: chown ${uid} ${file} && chmod 600 ${file}`,
    );
  }
  if ((stats.mode & 0o022) !== 0) {
    throw new UnsafeSecretFile(
      file,
      `${file} is writable by group or others (mode 0${(stats.mode & 0o777).toString(8)}): another local user could have replaced it. Check it (or delete it), then: chmod 600 ${file}`,
    );
  }
}
