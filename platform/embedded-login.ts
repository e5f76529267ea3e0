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

/** The superuser's connection string for the embedded server on `port`. */
export function embeddedSuperuserUrl(port: number, database: string): string {
  return `postgres://${EMBEDDED_SUPERUSER}:${EMBEDDED_SUPERUSER_PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The runtime login's connection string for the embedded server on `port`. */
export function embeddedRuntimeUrl(port: number, password: string): string {
  return `postgres://${EMBEDDED_RUNTIME_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}
