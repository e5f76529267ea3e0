/**
 * Secret files under the data directory (jwt-secret, pin-pepper, database-password; and
 * writeSecretFile, for a generated password kept for the operator). Regression: var/ was
 * made world-writable at every start and a secret file was taken whatever its mode or owner
 * (its mode was silently reset to 0600), so any local user could put their own jwt-secret
 * there and sign tokens for any account. A file another user owns, or one group or others
 * may write, or a symbolic link, is now refused, naming the file and the fix.
 */
import { chmod, chown, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOrCreateSecretFile, UnsafeSecretFile, writeSecretFile } from './secret-file.ts';

const VALUE = 'k'.repeat(20) + 'abcdefghijklmnopqrstuvwxyz';
const runningAsRoot = process.getuid?.() === 0;
const NOBODY = 65534;

async function dataDirWith(name: string, mode: number): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'wallet-secret-'));
  const file = join(dir, name);
  await writeFile(file, `${VALUE}\n`);
  await chmod(file, mode);
  return { dir, file };
}

describe('readOrCreateSecretFile', () => {
  it('generates the value once into a 0600 file, in a data directory only its user may enter', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'wallet-secret-')), 'var');
    const value = await readOrCreateSecretFile(dir, 'jwt-secret');
    expect(value.length).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await readOrCreateSecretFile(dir, 'jwt-secret')).toBe(value);
  });

  it('takes a file of its own user that only that user may write, and makes it unreadable to others', async () => {
    const { dir, file } = await dataDirWith('pin-pepper', 0o644);
    expect(await readOrCreateSecretFile(dir, 'pin-pepper')).toBe(VALUE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['writable by everyone', 0o666],
    ['writable by its group', 0o620],
    ['writable by others', 0o602],
  ])('refuses a file %s, naming it and the fix (chmod 600), and leaves it as it was', async (_case, mode) => {
    const { dir, file } = await dataDirWith('jwt-secret', mode);
    const attempt = readOrCreateSecretFile(dir, 'jwt-secret');
    await expect(attempt).rejects.toBeInstanceOf(UnsafeSecretFile);
    await expect(readOrCreateSecretFile(dir, 'jwt-secret')).rejects.toThrow(
      `${file} is writable by group or others (mode 0${mode.toString(8)})`,
    );
    await expect(readOrCreateSecretFile(dir, 'jwt-secret')).rejects.toThrow(`chmod 600 ${file}`);
    // Not "repaired" behind the operator's back: whoever could write it may have replaced the secret.
    expect((await stat(file)).mode & 0o777).toBe(mode);
  });

  it.runIf(runningAsRoot)('refuses a file another user owns, naming it and the fix', async () => {
    const { dir, file } = await dataDirWith('database-password', 0o600);
    await chown(file, NOBODY, NOBODY);
    await expect(readOrCreateSecretFile(dir, 'database-password')).rejects.toThrow(
      `${file} is owned by uid ${NOBODY}, not by this process's user (uid ${process.getuid?.()})`,
    );
    await expect(readOrCreateSecretFile(dir, 'database-password')).rejects.toThrow(
      `chown ${process.getuid?.()} ${file} && chmod 600 ${file}`,
    );
  });

  it('refuses a symbolic link, even to a file of its own user', async () => {
    const { dir, file: target } = await dataDirWith('elsewhere', 0o600);
    const link = join(dir, 'jwt-secret');
    await symlink(target, link);
    await expect(readOrCreateSecretFile(dir, 'jwt-secret')).rejects.toThrow(`${link} is a symbolic link`);
  });
});

describe('writeSecretFile (a generated password kept for the operator)', () => {
  it('writes a 0600 file, replacing an older one of its own user', async () => {
    const { dir, file } = await dataDirWith('first-admin-password', 0o644);
    expect(await writeSecretFile(dir, 'first-admin-password', 'new-password')).toBe(file);
    expect(await readFile(file, 'utf8')).toBe('new-password\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses to write into a file others may write or a symbolic link (whoever planted it would read the password)', async () => {
    const { dir, file } = await dataDirWith('first-admin-password', 0o666);
    await expect(writeSecretFile(dir, 'first-admin-password', 'new-password')).rejects.toThrow(`chmod 600 ${file}`);
    expect(await readFile(file, 'utf8')).toBe(`${VALUE}\n`);
    const { dir: other, file: target } = await dataDirWith('planted', 0o600);
    await symlink(target, join(other, 'first-admin-password'));
    await expect(writeSecretFile(other, 'first-admin-password', 'new-password')).rejects.toThrow(/is a symbolic link/);
    expect(await readFile(target, 'utf8')).toBe(`${VALUE}\n`);
  });

  it.runIf(runningAsRoot)('refuses to write into a file another user owns', async () => {
    const { dir, file } = await dataDirWith('first-admin-password', 0o600);
    await chown(file, NOBODY, NOBODY);
    await expect(writeSecretFile(dir, 'first-admin-password', 'new-password')).rejects.toThrow(
      `${file} is owned by uid ${NOBODY}`,
    );
    expect(await readFile(file, 'utf8')).toBe(`${VALUE}\n`);
  });
});
