/**
 * The embedded default (`npm start` without DATABASE_URL): the app connects as its runtime
 * login, and migrations as the superuser, both over the server's Unix socket in the data
 * directory; the server opens no TCP port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withClient } from './database.ts';
import { openDatabaseServer } from './database-server.ts';
import { freePort } from './embedded-postgres.ts';

const root = mkdtempSync(join(tmpdir(), 'wallet-server-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('openDatabaseServer, embedded', () => {
  it('hands the app a runtime URL over the Unix socket, authenticated by password', async () => {
    const server = await openDatabaseServer({ dataDir: join(root, 'var'), embeddedPort: await freePort() });
    try {
      const row = await withClient(server.url, async (client) => {
        const { rows } = await client.query<{ user: string; address: string | null }>(
          'select current_user as user, inet_server_addr()::text as address',
        );
        return rows[0];
      });
      // inet_server_addr() is null on a Unix-socket connection.
      expect(row).toEqual({ user: 'wallet_app', address: null });
      const wrongPassword = server.url.replace(/:[^:@/]+@/, ':not-the-password@');
      await expect(withClient(wrongPassword, async () => undefined)).rejects.toThrow(/password authentication failed/);
      expect(server.ownerUrl).toContain(`?host=${encodeURIComponent(join(root, 'var', 'postgres-socket'))}`);
    } finally {
      await server.stop();
    }
  });
});
