/**
 * A server of a test file's own, for settings the shared e2e server cannot have (the rate
 * limits): `node bin/server.ts` on its own embedded Postgres in a temp DATA_DIR, the web build
 * the global setup made, the first admin from ADMIN_EMAIL, workers on. `stop` ends it with
 * SIGTERM (SIGKILL only if it hangs) and removes the temp data.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../platform/embedded-postgres.ts';
import { processEnvironment, ROOT, spawnEntryPoint, stopProcess, waitForHealth } from '../../test/processes.ts';
import { OUTPUT_DIR } from './constants.ts';

export interface OwnServer {
  baseUrl: string;
  admin: { email: string; password: string };
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

/** `name` names its log (test-output/e2e/<name>.log); `settings` go on top of the environment. */
export async function startOwnServer(name: string, settings: Record<string, string>): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `wallet-${name}-`));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const admin = { email: `admin@${name}.example`, password: `${name}-admin-pass-1` };
  const env = processEnvironment(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      RUN_WORKERS: 'true',
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      ...settings,
    },
    [
      'JWT_SECRET',
      'DATABASE_URL',
      'DATABASE_OWNER_URL',
      'RATE_LIMIT_MAX',
      'RATE_LIMIT_AUTH_MAX',
      'RATE_LIMIT_READ_MAX',
      'RATE_LIMIT_WINDOW_MS',
    ].filter((key) => !(key in settings)),
  );
  const logPath = join(ROOT, OUTPUT_DIR, `${name}.log`);
  const log = createWriteStream(logPath);
  const server = spawnEntryPoint('bin/server.ts', env);
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  const readLog = () => {
    try {
      return readFileSync(logPath, 'utf8').slice(-4000);
    } catch {
      return '(no server log)';
    }
  };
  try {
    await waitForHealth(baseUrl, server, { timeoutMs: START_TIMEOUT_MS, log: readLog });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    admin,
    async stop() {
      await stopProcess(server, STOP_TIMEOUT_MS);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
