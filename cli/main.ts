/**
 * The operator CLI, `npm run ledger -- <command>`: reads the global flags (--json,
 * --version), plans the command (cli/commands.ts), opens the database and runs it, then
 * prints its output - human, or one JSON document with --json - and answers the exit code
 * (listed in cli/help.ts and in --help). Diagnostics go to `io.log` (pino, stderr).
 */
import { readFileSync } from 'node:fs';
import { createDatabase } from '../platform/database.ts';
import { BackupRefused, runBackup, type BackupPlan } from './backup.ts';
import { planBackup, planCommand, UsageError, type Command, type CommandResult } from './commands.ts';
import { openDatabaseTarget } from './connect.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE, HELP } from './help.ts';
import type { CliIo } from './io.ts';

export { EXIT_ERROR, EXIT_FAILED, EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE } from './help.ts';

export interface CliEnv {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}

/** The version in package.json: the one `npm run ledger` runs. */
export function cliVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const version = (manifest as { version?: unknown }).version;
  return typeof version === 'string' ? version : 'unknown';
}

/** JSON for scripts: bigints (paise, positions) as decimal strings, Dates as ISO 8601 UTC. */
export function toJson(data: unknown): string {
  return JSON.stringify(data, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2);
}

/** Errors that mean the database could not be reached, as opposed to a command that failed on it. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  '57P03',
  '28P01',
  '28000',
  '3D000',
]);

function isConnectionFailure(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isConnectionFailure);
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (typeof code === 'string' && CONNECTION_CODES.has(code)) ||
    (error instanceof Error && /Connection terminated|connect ECONNREFUSED|timeout expired/.test(error.message))
  );
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  return error instanceof Error ? error.message : String(error);
}

function hintFor(message: string): string | undefined {
  if (/relation "(read|ledger)\.\w+" does not exist|schema "read" does not exist/.test(message))
    return 'The database is not migrated: run `npm run migrate`.';
  if (/permission denied/.test(message))
    return 'The CLI connects as the runtime role; its grants are applied by `npm run migrate` (as the owner).';
  return undefined;
}

interface Output {
  io: CliIo;
  json: boolean;
}

/** A failure: a diagnostic line on stderr, and with --json an error document on stdout. */
function fail(output: Output, exitCode: number, message: string, details: Record<string, unknown> = {}): number {
  output.io.log.error({ exitCode, ...details }, message);
  if (output.json) output.io.out(toJson({ error: { exitCode, message, ...details } }));
  return exitCode;
}

async function runPlanned(name: string, command: Command, output: Output, env: CliEnv): Promise<number> {
  let target;
  try {
    target = await openDatabaseTarget(env);
  } catch (error) {
    return fail(output, EXIT_UNAVAILABLE, messageOf(error));
  }
  output.io.log.info({ command: name, database: target.description }, 'database');
  const db = createDatabase<unknown>({
    connectionString: target.url,
    // A replay of every projection at once takes two each (projections/engine/replay.ts).
    maxConnections: 8,
    applicationName: `wallet-cli-${name}`,
  });
  let result: CommandResult;
  try {
    result = await command(db, output.io);
  } catch (error) {
    const message = messageOf(error);
    if (isConnectionFailure(error)) return fail(output, EXIT_UNAVAILABLE, message, { database: target.description });
    const hint = hintFor(message);
    return fail(output, EXIT_ERROR, message, hint ? { hint } : {});
  } finally {
    await db.destroy();
    await target.stop();
  }
  output.io.out(output.json ? toJson(result.data) : result.text);
  return result.exitCode;
}

export async function runCli(argv: readonly string[], io: CliIo, env: CliEnv): Promise<number> {
  const json = argv.includes('--json');
  const output = { io, json };
  const [name, ...args] = argv.filter((arg) => arg !== '--json');
  if (name === '--version' || name === '-V') {
    io.out(json ? toJson({ version: cliVersion() }) : cliVersion());
    return EXIT_OK;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (!name) {
      io.err(HELP.main ?? '');
      return fail(output, EXIT_USAGE, 'no command given');
    }
    io.out(HELP.main ?? '');
    return EXIT_OK;
  }
  let command: Command | BackupPlan | 'help';
  try {
    command = name === 'backup' ? planBackup(args) : planCommand(name, args);
  } catch (error) {
    const message = messageOf(error);
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    io.err(`error: ${message}\n\n${HELP[name] ?? HELP.main}`);
    if (json) io.out(toJson({ error: { exitCode: EXIT_USAGE, message } }));
    return EXIT_USAGE;
  }
  if (command === 'help') {
    io.out(HELP[name] ?? '');
    return EXIT_OK;
  }
  if (typeof command !== 'function') return runBackupCommand(command, output, env);
  return runPlanned(name, command, output, env);
}

/** `backup` copies the embedded server's data directory, as its superuser (cli/backup.ts). */
async function runBackupCommand(plan: BackupPlan, output: Output, env: CliEnv): Promise<number> {
  let result: CommandResult;
  try {
    result = await runBackup(plan, env, output.io);
  } catch (error) {
    const message = messageOf(error);
    if (error instanceof BackupRefused) return fail(output, EXIT_ERROR, message);
    if (isConnectionFailure(error)) return fail(output, EXIT_UNAVAILABLE, message);
    return fail(output, EXIT_ERROR, message);
  }
  output.io.out(output.json ? toJson(result.data) : result.text);
  return result.exitCode;
}
