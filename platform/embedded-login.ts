/**
 * The embedded server's runtime login (the default when DATABASE_URL is unset): the app,
 * the workers and the CLI connect as `wallet_app`, a member of wallet_runtime, not as the
 * embedded superuser that runs migrations. Its password is generated once and kept in
 * `<DATA_DIR>/database-password` (mode 0600), as the server secret is kept in
 * `<DATA_DIR>/jwt-secret`, and set on the role at every start of the embedded server.
 */
import { readOrCreateSecretFile } from './secret-file.ts';

export const EMBEDDED_RUNTIME_USER = 'wallet_app';
export const EMBEDDED_DATABASE = 'wallet';
const PASSWORD_FILE = 'database-password';
const PASSWORD = { bytes: 24, minLength: 24, kind: 'password' } as const;

export function embeddedRuntimePassword(dataDir: string): Promise<string> {
  return readOrCreateSecretFile(dataDir, PASSWORD_FILE, PASSWORD);
}

/** The embedded server's superuser (platform/embedded-postgres.ts), which migrations and backups connect as. */
export const EMBEDDED_SUPERUSER = 'postgres';
export const EMBEDDED_SUPERUSER_PASSWORD = 'postgres';

/** The superuser's connection string for the embedded server on `port`: TCP, or its Unix socket in `socketDir`. */
export function embeddedSuperuserUrl(port: number, database: string, socketDir?: string): string {
  if (socketDir === undefined)
    return `postgres://${EMBEDDED_SUPERUSER}:${EMBEDDED_SUPERUSER_PASSWORD}@127.0.0.1:${port}/${database}`;
  return `postgres://${EMBEDDED_SUPERUSER}:${EMBEDDED_SUPERUSER_PASSWORD}@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`;
}

/**
 * Where the embedded server puts its Unix socket (`.s.PGSQL.<port>`); Postgres' own default,
 * set explicitly so the runtime URL below does not depend on how the binaries were built.
 * Local connections still authenticate by password (the cluster's pg_hba).
 */
export const EMBEDDED_SOCKET_DIR = '/tmp';

/**
 * The runtime login's connection string for the embedded server on `port`: over its Unix
 * socket (`host` in the query), which spares every statement of the app's round trips the TCP
 * loopback stack; the port names the socket file.
 */
export function embeddedRuntimeUrl(port: number, password: string): string {
  const socket = encodeURIComponent(EMBEDDED_SOCKET_DIR);
  return `postgres://${EMBEDDED_RUNTIME_USER}:${encodeURIComponent(password)}@localhost:${port}/${EMBEDDED_DATABASE}?host=${socket}`;
}
