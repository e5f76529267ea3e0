/**
 * Who can reach the embedded Postgres of a running `npm start` (bin/server.ts on its own
 * DATA_DIR). Regression (security review 3): the superuser was `postgres`/`postgres`, its
 * socket sat in /tmp with mode 0777 and it listened on 127.0.0.1, so any local user could log in
 * as superuser, read the password hashes and run shell commands with `copy ... from program`.
 * Now the superuser's password is generated into the data directory, the socket lives in a
 * 0700 directory there and the app's server opens no TCP port; a second OS user gets nowhere.
 *
 * Also: `npm run admin:create` beside the running app uses its server (it crashed with
 * `undefined` trying to start a second one on the same data directory).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../platform/embedded-postgres.ts';
import { processEnvironment, ROOT, spawnEntryPoint, stopProcess, waitForHealth } from './processes.ts';

const START_TIMEOUT_MS = 90_000;
const RUN_TIMEOUT_MS = 60_000;
const WELL_KNOWN = 'postgres';

let dataDir: string;
let databasePort: number;
let server: ChildProcess;
let serverLog = '';
let env: NodeJS.ProcessEnv;

const socketDir = (): string => join(dataDir, 'postgres-socket');
const socketUrl = (user: string, password: string, database = 'wallet'): string =>
  `postgres://${user}:${encodeURIComponent(password)}@localhost:${databasePort}/${database}?host=${encodeURIComponent(socketDir())}`;
const tcpUrl = (user: string, password: string): string =>
  `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${databasePort}/wallet`;

/** The error code (SQLSTATE or errno) a connection attempt ends with, or 'connected'. */
async function connectOutcome(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return 'connected';
  } catch (error) {
    return String((error as { code?: unknown }).code ?? (error as Error).message);
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-access-'));
  databasePort = await freePort();
  const port = await freePort();
  env = processEnvironment(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_POSTGRES_PORT: String(databasePort),
      ADMIN_EMAIL: 'admin@access.example',
      ADMIN_PASSWORD: 'access-admin-pass-1',
      RUN_WORKERS: 'false',
    },
    ['DATABASE_URL', 'DATABASE_OWNER_URL', 'LISTEN_DATABASE_URL', 'JWT_SECRET', 'PIN_PEPPER'],
  );
  server = spawnEntryPoint('bin/server.ts', env);
  server.stdout?.on('data', (chunk: Buffer) => (serverLog += chunk.toString('utf8')));
  server.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk.toString('utf8')));
  await waitForHealth(`http://127.0.0.1:${port}`, server, {
    timeoutMs: START_TIMEOUT_MS,
    log: () => serverLog.slice(-4000),
  });
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  if (server) await stopProcess(server, 15_000);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded Postgres of a running app', () => {
  it('refuses the well-known superuser password; the generated one, kept 0600 in DATA_DIR, works', async () => {
    expect(await connectOutcome(socketUrl('postgres', WELL_KNOWN))).toBe('28P01');
    const file = join(dataDir, 'postgres-superuser-password');
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect(await connectOutcome(socketUrl('postgres', password))).toBe('connected');
  });

  it('opens no TCP port and keeps its socket in a directory of its own user only', async () => {
    expect(await connectOutcome(tcpUrl('postgres', WELL_KNOWN))).toBe('ECONNREFUSED');
    const mode = statSync(socketDir()).mode & 0o777;
    expect(mode.toString(8)).toBe('700');
    const socket = statSync(join(socketDir(), `.s.PGSQL.${databasePort}`));
    expect((socket.mode & 0o077).toString(8)).toBe('0');
  });

  it('lets no other OS user connect, by socket or TCP, even with the right password', () => {
    const password = readFileSync(join(dataDir, 'postgres-superuser-password'), 'utf8').trim();
    // Another user: `nobody` when this runs as root (CI, the machines here); a user without
    // root cannot become another one, and the modes checked above are what keep others out.
    if (process.getuid?.() !== 0) {
      expect(statSync(socketDir()).uid).toBe(process.getuid?.());
      return;
    }
    const asNobody = (url: string) =>
      spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'psql', url, '-Atc', 'select 1'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/' },
        timeout: 20_000,
      });
    const bySocket = asNobody(socketUrl('postgres', password, 'wallet'));
    expect(bySocket.status, bySocket.stdout).not.toBe(0);
    expect(bySocket.stderr).toMatch(/Permission denied|No such file/);
    const byTcp = asNobody(tcpUrl('postgres', password));
    expect(byTcp.status, byTcp.stdout).not.toBe(0);
    expect(byTcp.stderr).toMatch(/Connection refused/);
    // The check can fail: the same command as this user connects.
    const asSelf = spawnSync('psql', [socketUrl('postgres', password), '-Atc', 'select 1'], { encoding: 'utf8' });
    expect(asSelf.stdout.trim(), asSelf.stderr).toBe('1');
  });

  it(
    'runs `npm run admin:create` beside it, on the same server',
    async () => {
      const child = spawn(process.execPath, ['bin/admin-create.ts', '--email', 'second-admin@access.example'], {
        cwd: ROOT,
        env: { ...env, ADMIN_PASSWORD: 'second-admin-pass-1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearTimeout(timer);
      expect(code, output).toBe(0);
      expect(output).toContain('Admin created: second-admin@access.example');
      const password = readFileSync(join(dataDir, 'postgres-superuser-password'), 'utf8').trim();
      const client = new pg.Client({ connectionString: socketUrl('postgres', password) });
      await client.connect();
      try {
        const { rows } = await client.query<{ is_admin: boolean }>(
          'select is_admin from identity.users where email = $1',
          ['second-admin@access.example'],
        );
        expect(rows).toEqual([{ is_admin: true }]);
      } finally {
        await client.end();
      }
    },
    RUN_TIMEOUT_MS + 5_000,
  );
});
