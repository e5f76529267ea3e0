import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningEmbeddedPort } from '../platform/database-server.ts';
import { openDatabaseTarget } from './connect.ts';

function dataDirWithPid(pid: number, port: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-connect-'));
  mkdirSync(join(dir, 'postgres'));
  writeFileSync(
    join(dir, 'postgres', 'postmaster.pid'),
    `${pid}\n${dir}/postgres\n1700000000\n${port}\n/tmp\n127.0.0.1\n`,
  );
  return dir;
}

describe('finding the embedded Postgres that npm start is running', () => {
  it('connects to the port in postmaster.pid when its process is alive', async () => {
    const dir = dataDirWithPid(process.pid, 54329);
    try {
      expect(runningEmbeddedPort(dir)).toBe(54329);
      writeFileSync(join(dir, 'database-password'), 'the-runtime-password-of-this-data-dir\n', { mode: 0o600 });
      const target = await openDatabaseTarget({ DATA_DIR: dir });
      // As the runtime login, with the password npm start generated, never as the superuser,
      // over the socket in the data directory's private folder.
      expect(target.url).toBe(
        `postgres://wallet_app:the-runtime-password-of-this-data-dir@localhost:54329/wallet?host=${encodeURIComponent(join(dir, 'postgres-socket'))}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores a stale postmaster.pid and a missing one', () => {
    const dir = dataDirWithPid(2 ** 22 + 12_345, 54329);
    try {
      expect(runningEmbeddedPort(dir)).toBeUndefined();
      expect(runningEmbeddedPort(join(dir, 'elsewhere'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prefers DATABASE_URL', async () => {
    const target = await openDatabaseTarget({ DATABASE_URL: 'postgres://u@h:1/d', DATA_DIR: '/nonexistent' });
    expect(target.url).toBe('postgres://u@h:1/d');
  });
});
