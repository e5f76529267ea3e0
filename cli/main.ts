/**
 * The operator CLI, `npm run ledger -- <command>`: parses arguments, opens the database
 * and runs one command. Exit codes: 0 success, 1 a failed check or an error, 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { createDatabase } from '../platform/database.ts';
import { isProjectionName, PROJECTION_NAMES } from '../projections/index.ts';
import { openDatabaseTarget } from './connect.ts';
import { formatBalance, formatEvents } from './inspect.ts';
import type { CliIo } from './io.ts';
import { replayCommand } from './replay.ts';
import {
  accountBalance,
  listEvents,
  projectionStatus,
  readPostings,
  recordVerifyRun,
  timedVerify,
} from '../audit/index.ts';
import { formatStatus } from './status.ts';
import { formatVerifyReport } from './verify.ts';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
const DEFAULT_EVENT_LIMIT = 100;
const MAX_EVENT_LIMIT = 10_000;

export interface CliEnv {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}

class UsageError extends Error {}

const HELP: Record<string, string> = {
  main: `Usage: npm run ledger -- <command> [options]

Commands:
  replay [--projection NAME]   rebuild read tables from the first event and swap them in
  verify                       recompute balances from postings; compare heads and projections
  status                       projection checkpoints and lag
  balance ACCOUNT              an account's balance from postings, head and projection
  events [filters]             list events (--stream, --account, --since, --until, --limit)

Run \`npm run ledger -- <command> --help\` for a command's options.
Database: DATABASE_URL, or the embedded Postgres in var/ (the running one when npm start runs).`,
  replay: `Usage: npm run ledger -- replay [--projection NAME]

Rebuilds projections into fresh tables from position 0, then swaps them in atomically while
the app keeps serving. Prints a progress bar and the rate in events/s.
  --projection NAME   only this projection (${PROJECTION_NAMES.join(', ')}); default: all`,
  verify: `Usage: npm run ledger -- verify

Recomputes every balance from the postings and compares it with the wallet heads
(ledger.accounts), the balance projection and the statements; checks that all postings and
each event's postings sum to zero; prints the trial balance. Exits 1 naming each difference.`,
  status: `Usage: npm run ledger -- status

Shows each projection's checkpoint, events applied, lag in events and seconds, last error,
and any open transaction that holds the projections back.`,
  balance: `Usage: npm run ledger -- balance ACCOUNT

Shows ACCOUNT's balance computed from postings, its account head (wallets) and the balance
projection. Example: npm run ledger -- balance funding:upi`,
  events: `Usage: npm run ledger -- events [--stream ID] [--account ID] [--since TIME] [--until TIME] [--limit N]

Lists events in position order.
  --stream ID     one stream, e.g. transfer-<id>, deposit-<id>, request-<id>, wallet-<id>
  --account ID    events that post to or name this account
  --since TIME    recorded at or after TIME (ISO 8601, e.g. 2026-01-31 or 2026-01-31T10:00:00Z)
  --until TIME    recorded before TIME
  --limit N       at most N events (default ${DEFAULT_EVENT_LIMIT}, at most ${MAX_EVENT_LIMIT})`,
};

type Command = (db: Kysely<unknown>, io: CliIo) => Promise<number>;

interface Parsed {
  values: Record<string, string | undefined>;
  positionals: string[];
}

function parseTime(value: string | undefined, flag: string): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new UsageError(`${flag} must be an ISO 8601 time, got "${value}"`);
  return time;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_EVENT_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENT_LIMIT)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_EVENT_LIMIT}, got "${value}"`);
  return limit;
}

/** Parses one command's arguments into the function that runs it; usage errors throw. */
function planCommand(name: string, args: string[]): Command | 'help' {
  const parse = (options: Record<string, { type: 'string' }>, positionals: number): Parsed | undefined => {
    const parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.values.help === true) return undefined;
    if (parsed.positionals.length !== positionals) {
      throw new UsageError(
        positionals === 0
          ? `${name} takes no arguments, got "${parsed.positionals.join(' ')}"`
          : `${name} needs exactly ${positionals} argument(s)`,
      );
    }
    const values: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(parsed.values)) if (typeof value === 'string') values[key] = value;
    return { values, positionals: parsed.positionals };
  };
  switch (name) {
    case 'replay': {
      const parsed = parse({ projection: { type: 'string' } }, 0);
      if (!parsed) return 'help';
      const projection = parsed.values.projection;
      if (projection !== undefined && !isProjectionName(projection))
        throw new UsageError(`unknown projection "${projection}" (one of: ${PROJECTION_NAMES.join(', ')})`);
      return async (db, io) => {
        await replayCommand(db, io, projection);
        return EXIT_OK;
      };
    }
    case 'verify': {
      if (!parse({}, 0)) return 'help';
      return async (db, io) => {
        const { report, durationMs } = await timedVerify(db);
        io.out(formatVerifyReport(report));
        // Recorded for the admin trial balance page; a database without the table still verifies.
        await recordVerifyRun(db, report, 'cli', durationMs).catch((error: unknown) =>
          io.err(`(verify run not recorded: ${error instanceof Error ? error.message : String(error)})`),
        );
        return report.differences.length === 0 ? EXIT_OK : EXIT_FAILED;
      };
    }
    case 'status': {
      if (!parse({}, 0)) return 'help';
      return async (db, io) => {
        io.out(formatStatus(await projectionStatus(db)));
        return EXIT_OK;
      };
    }
    case 'balance': {
      const parsed = parse({}, 1);
      if (!parsed) return 'help';
      const account = parsed.positionals[0] ?? '';
      return async (db, io) => {
        const report = await accountBalance(db, account);
        io.out(formatBalance(report));
        return report.kind ? EXIT_OK : EXIT_FAILED;
      };
    }
    case 'events': {
      const parsed = parse(
        {
          stream: { type: 'string' },
          account: { type: 'string' },
          since: { type: 'string' },
          until: { type: 'string' },
          limit: { type: 'string' },
        },
        0,
      );
      if (!parsed) return 'help';
      // An empty --stream or --account filters nothing, as if it were not given.
      const filter = {
        stream: parsed.values.stream || undefined,
        account: parsed.values.account || undefined,
        from: parseTime(parsed.values.since, '--since'),
        to: parseTime(parsed.values.until, '--until'),
      };
      const limit = parseLimit(parsed.values.limit);
      return async (db, io) => {
        const { items } = await listEvents(db, filter, { limit });
        io.out(
          formatEvents(
            items,
            await readPostings(
              db,
              items.map((event) => BigInt(event.position)),
            ),
          ),
        );
        return EXIT_OK;
      };
    }
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

export async function runCli(argv: readonly string[], io: CliIo, env: CliEnv): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP.main ?? '');
    return name ? EXIT_OK : EXIT_USAGE;
  }
  let command: Command | 'help';
  try {
    command = planCommand(name, args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`error: ${message}\n\n${HELP[name] ?? HELP.main}`);
    return EXIT_USAGE;
  }
  if (command === 'help') {
    io.out(HELP[name] ?? '');
    return EXIT_OK;
  }
  let target;
  try {
    target = await openDatabaseTarget(env);
  } catch (error) {
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
  const db = createDatabase<unknown>({
    connectionString: target.url,
    maxConnections: 4,
    applicationName: `wallet-cli-${name}`,
  });
  try {
    return await command(db, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = /relation "(read|ledger)\.\w+" does not exist|schema "read" does not exist/.test(message)
      ? '\nThe database is not migrated: run `npm run migrate`.'
      : /permission denied/.test(message)
        ? '\nThe CLI connects as the runtime role; its grants are applied by `npm run migrate` (as the owner).'
        : '';
    io.err(`error: ${message}${hint}`);
    return EXIT_FAILED;
  } finally {
    await db.destroy();
    await target.stop();
  }
}
