/**
 * The embedded server's logins and where to reach it (the default when DATABASE_URL is
 * unset). Two logins, each with a password generated once into the data root (DATA_DIR,
 * mode 0600, like `jwt-secret`): the superuser `postgres`, which migrations and backups
 * connect as (`<DATA_DIR>/postgres-superuser-password`), and `wallet_app`, a member of
 * wallet_runtime, which the app, the workers and the CLI connect as
 * (`<DATA_DIR>/database-password`).
 *
 * The server's Unix socket lives in `<DATA_DIR>/postgres-socket` (0700, the server's user's),
 * not in /tmp: another local user can neither reach the socket nor guess a password, so being
 * on the machine is not being a database user (docs/security.md).
 */
import { join } from 'node:path';
import { readOrCreateSecretFile } from './secret-file.ts';

export const EMBEDDED_RUNTIME_USER = 'wallet_app';
export const EMBEDDED_DATABASE = 'wallet';
export const EMBEDDED_SUPERUSER = 'postgres';
/**
 * What clusters initialised before the password was generated were given; a start finding such
 * a cluster replaces it with the generated one (platform/embedded-postgres.ts), and the
 * well-known password is refused from then on.
 */
export const LEGACY_SUPERUSER_PASSWORD = 'postgres';

const RUNTIME_PASSWORD_FILE = 'database-password';
const SUPERUSER_PASSWORD_FILE = 'postgres-superuser-password';
const PASSWORD = { bytes: 24, minLength: 24, kind: 'password' } as const;
/** A Unix socket's path has room for 107 bytes on Linux; the socket's own name takes up to 16. */
const MAX_SOCKET_DIR_LENGTH = 90;

export function embeddedRuntimePassword(dataRoot: string): Promise<string> {
  return readOrCreateSecretFile(dataRoot, RUNTIME_PASSWORD_FILE, PASSWORD);
}

export function embeddedSuperuserPassword(dataRoot: string): Promise<string> {
  return readOrCreateSecretFile(dataRoot, SUPERUSER_PASSWORD_FILE, PASSWORD);
}

/** The directory of the embedded server's Unix socket (`.s.PGSQL.<port>`) under the data root. */
export function embeddedSocketDir(dataRoot: string): string {
  const dir = join(dataRoot, 'postgres-socket');
  if (dir.length > MAX_SOCKET_DIR_LENGTH)
    throw new Error(
      `${dir} is too long for a Unix socket's path (${dir.length} > ${MAX_SOCKET_DIR_LENGTH} characters): set DATA_DIR to a shorter path`,
    );
  return dir;
}

export interface EmbeddedAddress {
  port: number;
  /** Where the socket is (embeddedSocketDir); undefined: over TCP on 127.0.0.1. */
  socketDir?: string | undefined;
}

/** A login's connection string for the embedded server: over its Unix socket, or TCP on loopback. */
export function embeddedUrl(address: EmbeddedAddress, user: string, password: string, database: string): string {
  const login = `${user}:${encodeURIComponent(password)}`;
  if (address.socketDir === undefined) return `postgres://${login}@127.0.0.1:${address.port}/${database}`;
  // `host` in the query names the socket's directory; the port names the socket file.
  return `postgres://${login}@localhost:${address.port}/${database}?host=${encodeURIComponent(address.socketDir)}`;
}

/**
 * The runtime login's connection string: over the Unix socket, which spares every statement of
 * the app's round trips the TCP loopback stack.
 */
export function embeddedRuntimeUrl(port: number, password: string, dataRoot: string): string {
  return embeddedUrl(
    { port, socketDir: embeddedSocketDir(dataRoot) },
    EMBEDDED_RUNTIME_USER,
    password,
    EMBEDDED_DATABASE,
  );
}
