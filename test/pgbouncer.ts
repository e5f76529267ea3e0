/**
 * A real PgBouncer (Debian's `pgbouncer` package; `.ci/run` installs it) in transaction pooling
 * mode in front of the test server, for the tests that run the app through a connection
 * pooler. Its ini and auth file are generated in a temp directory; the logins it accepts are
 * the ones of the URLs it is given (SCRAM from the client, the plain password kept in the auth
 * file so PgBouncer can log in to Postgres). As root it runs as the `postgres` OS user: it
 * refuses to run as root. Every database name maps to the same database on the target server.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { loginOf, withLogin } from '../platform/runtime-role.ts';
import { waitUntil } from './wait.ts';

/** Where Debian puts it (/usr/sbin is not on every user's PATH), else whatever PATH finds. */
const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
const START_TIMEOUT_MS = 15_000;

export interface PgBouncerOptions {
  /** Server connections per (database, user) pair: small, so the pooling shows. */
  poolSize?: number;
}

export interface PgBouncer {
  /** `targetUrl` with its host and port replaced by PgBouncer's. */
  url: string;
  /** The admin console (database `pgbouncer`), as the target's user. */
  adminUrl: string;
  /** `SHOW <what>` on the admin console (POOLS, STATS, SERVERS, CLIENTS). */
  show(what: 'POOLS' | 'STATS' | 'SERVERS' | 'CLIENTS'): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/** The settings that matter are here; the README's deployment notes name the same ones. */
function iniFile(target: URL, dir: string, port: number, user: string, poolSize: number): string {
  return `[databases]
* = host=${target.hostname} port=${target.port || '5432'}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${join(dir, 'userlist.txt')}
admin_users = ${user}
stats_users = ${user}
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 1000
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile = ${join(dir, 'pgbouncer.log')}
pidfile = ${join(dir, 'pgbouncer.pid')}
`;
}

function binary(): string {
  for (const candidate of CANDIDATES) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return 'pgbouncer';
}

/** PgBouncer, like Postgres, will not run as root: the postgres OS user's ids, when we are root. */
function unprivilegedIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPgBouncer(targetUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const target = new URL(targetUrl);
  const login = loginOf(targetUrl);
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pgbouncer-'));
  const port = await freePort();
  const ids = unprivilegedIds();
  writeFileSync(join(dir, 'userlist.txt'), `"${login.user}" "${login.password}"\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'pgbouncer.ini'), iniFile(target, dir, port, login.user, options.poolSize ?? 8));
  if (ids) {
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, file), ids.uid, ids.gid);
  }
  chmodSync(dir, 0o700);
  const child = spawn(binary(), [join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(ids ?? {}),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const adminUrl = new URL(withLogin(url.toString(), login));
  adminUrl.pathname = '/pgbouncer';
  const bouncer: PgBouncer = {
    url: url.toString(),
    adminUrl: adminUrl.toString(),
    show: (what) => withClient(adminUrl.toString(), async (client) => (await client.query(`show ${what}`)).rows),
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilServing(bouncer, child, () => output);
  } catch (error) {
    await bouncer.stop();
    throw error;
  }
  return bouncer;
}

async function waitUntilServing(bouncer: PgBouncer, child: ChildProcess, output: () => string): Promise<void> {
  let spawnError: Error | undefined;
  let lastError: unknown;
  child.once('error', (error) => (spawnError = error));
  await waitUntil(
    'pgbouncer to answer SHOW POOLS',
    async () => {
      if (spawnError)
        throw new Error(`pgbouncer did not start (${spawnError.message}): install Debian's pgbouncer package`);
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}):\n${output()}`);
      return bouncer.show('POOLS').then(
        () => true,
        (error: unknown) => {
          lastError = error;
          return false;
        },
      );
    },
    { timeoutMs: START_TIMEOUT_MS, intervalMs: 100, detail: () => `last error: ${String(lastError)}\n${output()}` },
  );
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // SIGINT: PgBouncer's "safe shutdown" waits for clients; SIGTERM drops them at once.
  child.kill('SIGTERM');
  await exited;
}

/**
 * Advisory locks held in database `name` right now, asked as its owner: after a run through
 * PgBouncer there must be none (a session lock taken through a transaction pooler stays on
 * whichever server connection took it).
 */
export async function advisoryLocksIn(ownerUrl: string, name: string): Promise<number> {
  return withClient(ownerUrl, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = $1",
      [name],
    );
    return rows[0]?.n ?? 0;
  });
}
