/**
 * The embedded server's data root (DATA_DIR, var/ for `npm start`): it holds the server's
 * secrets beside the cluster. Regression: every start made it world-writable (0777), so any
 * local user could replace var/jwt-secret. It is now its user's only: 0700, or 0711 when
 * running as root, where the server runs as the `postgres` user, which must pass through it
 * to its own data directory (and finds nothing to list or write there).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withClient } from './database.ts';
import { LEGACY_SUPERUSER_PASSWORD, embeddedSocketDir, embeddedUrl } from './embedded-login.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

const root = mkdtempSync(join(tmpdir(), 'wallet-embedded-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('startEmbeddedPostgres', () => {
  it('leaves its data root writable by its own user only (0700; 0711 as root), also one an older start made 0777', async () => {
    const dataRoot = join(root, 'var');
    mkdirSync(dataRoot);
    chmodSync(dataRoot, 0o777);
    const server = await startEmbeddedPostgres({ dataDir: join(dataRoot, 'postgres'), persistent: false, fast: true });
    try {
      const mode = statSync(dataRoot).mode & 0o7777;
      expect(mode & 0o022, `mode 0${mode.toString(8)}`).toBe(0);
      expect(mode.toString(8)).toBe(process.getuid?.() === 0 ? '711' : '700');
      // The server runs (as the postgres user when this is root) and answers.
      const rows = await withClient(
        server.url('postgres'),
        async (client) => (await client.query('select 1 as one')).rows,
      );
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
  });
});

describe('a cluster made before the superuser password was generated', () => {
  it('has the well-known password replaced by the generated one at its next start', async () => {
    const dataRoot = join(root, 'legacy');
    const dataDir = join(dataRoot, 'postgres');
    const first = await startEmbeddedPostgres({ dataDir, persistent: true, fast: true });
    const socket = { port: Number(new URL(first.url('postgres')).port), socketDir: embeddedSocketDir(dataRoot) };
    const legacyUrl = embeddedUrl(socket, 'postgres', LEGACY_SUPERUSER_PASSWORD, 'postgres');
    try {
      // What an older start left: the superuser's password was the well-known one.
      await withClient(first.url('postgres'), (client) =>
        client.query(`alter role postgres password '${LEGACY_SUPERUSER_PASSWORD}'`),
      );
      expect(await withClient(legacyUrl, async (client) => (await client.query('select 1 as one')).rows)).toEqual([
        { one: 1 },
      ]);
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres({ dataDir, port: socket.port, persistent: false, fast: true });
    try {
      await expect(withClient(legacyUrl, (client) => client.query('select 1'))).rejects.toMatchObject({
        code: '28P01',
      });
      const generated = readFileSync(join(dataRoot, 'postgres-superuser-password'), 'utf8').trim();
      const rows = await withClient(
        embeddedUrl(socket, 'postgres', generated, 'postgres'),
        async (client) => (await client.query('select 1 as one')).rows,
      );
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await second.stop();
    }
  });
});

describe("a new cluster's text", () => {
  it('is UTF-8 ordered by code point by the builtin provider, with Unicode cases (decision 0026)', async () => {
    const server = await startEmbeddedPostgres({
      dataDir: join(root, 'locale', 'postgres'),
      persistent: false,
      fast: true,
    });
    try {
      const row = await withClient(server.url('postgres'), async (client) => {
        const { rows } = await client.query<{
          provider: string;
          locale: string;
          encoding: string;
          ordered: string[];
          lowered: string;
        }>(
          `select d.datlocprovider as provider, d.datlocale as locale, pg_encoding_to_char(d.encoding) as encoding,
                  (select array_agg(x order by x) from unnest(array['b', 'é', 'B', 'a', 'Z', 'अ']) x) as ordered,
                  lower('ÉLAN') as lowered
             from pg_database d where d.datname = current_database()`,
        );
        return rows[0];
      });
      expect(row).toEqual({
        provider: 'b',
        locale: 'C.UTF-8',
        encoding: 'UTF8',
        ordered: ['B', 'Z', 'a', 'b', 'é', 'अ'],
        lowered: 'élan',
      });
    } finally {
      await server.stop();
    }
  });
});
