/**
 * Each operator command: its arguments parsed into a function that runs it over the database
 * and answers its exit code, its human printout and its data (printed with --json). The reads
 * are audit/'s and operations/'s; parse errors throw UsageError (exit 2, nothing run).
 */
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { accountBalance, listEvents, readPostings, recordVerifyRun, timedVerify } from '../audit/index.ts';
import { projectionStatus } from '../operations/index.ts';
import { isProjectionName, PROJECTION_NAMES } from '../projections/index.ts';
import type { BackupPlan } from './backup.ts';
import { DEFAULT_EVENT_LIMIT, EXIT_FAILED, EXIT_OK, MAX_EVENT_LIMIT } from './help.ts';
import { formatBalance, formatEvents } from './inspect.ts';
import type { CliIo } from './io.ts';
import { formatReplay, replayCommand } from './replay.ts';
import { formatStatus } from './status.ts';
import { formatVerifyReport } from './verify.ts';

export class UsageError extends Error {}

export interface CommandResult {
  exitCode: number;
  /** The human printout. */
  text: string;
  /** What --json prints (bigints become decimal strings, Dates ISO 8601 UTC). */
  data: unknown;
}

export type Command = (db: Kysely<unknown>, io: CliIo) => Promise<CommandResult>;

interface Parsed {
  values: Record<string, string | undefined>;
  /** The flags (options without a value) that were given. */
  flags: Set<string>;
  positionals: string[];
}

/** A time without an offset is UTC, whatever the operator's TZ (the printouts are UTC too). */
function parseTime(value: string | undefined, flag: string): Date | undefined {
  if (value === undefined) return undefined;
  const utc = /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(value) ? `${value}Z` : value;
  const time = new Date(utc);
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

/** One command's options and positionals; undefined when --help was asked. */
function parseCommand(
  name: string,
  args: string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
  positionals: number,
): Parsed | undefined {
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
  const flags = new Set<string>();
  for (const [key, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') values[key] = value;
    else if (value === true) flags.add(key);
  }
  return { values, flags, positionals: parsed.positionals };
}

const verify: Command = async (db, io) => {
  const { report, durationMs } = await timedVerify(db);
  // Recorded for the admin trial balance page; a database without the table still verifies.
  const recorded = await recordVerifyRun(db, report, 'cli', durationMs).then(
    () => true,
    (error: unknown) => {
      io.log.warn({ err: error }, 'verify run not recorded');
      return false;
    },
  );
  return {
    exitCode: report.differences.length === 0 ? EXIT_OK : EXIT_FAILED,
    text: formatVerifyReport(report),
    data: { ok: report.differences.length === 0, ...report, durationMs, recorded },
  };
};

const status: Command = async (db) => {
  const report = await projectionStatus(db);
  return { exitCode: EXIT_OK, text: formatStatus(report), data: { ...report, holder: report.holder ?? null } };
};

function planEvents(name: string, args: string[]): Command | 'help' {
  const flags = ['stream', 'account', 'since', 'until', 'limit'] as const;
  const parsed = parseCommand(name, args, Object.fromEntries(flags.map((flag) => [flag, { type: 'string' }])), 0);
  if (!parsed) return 'help';
  // An empty --stream or --account filters nothing, as if it were not given.
  const filter = {
    stream: parsed.values.stream || undefined,
    account: parsed.values.account || undefined,
    from: parseTime(parsed.values.since, '--since'),
    to: parseTime(parsed.values.until, '--until'),
  };
  const limit = parseLimit(parsed.values.limit);
  return async (db) => {
    const { items } = await listEvents(db, filter, { limit });
    const postings = await readPostings(
      db,
      items.map((event) => BigInt(event.position)),
    );
    return {
      exitCode: EXIT_OK,
      text: formatEvents(items, postings),
      data: { events: items.map((event) => ({ ...event, postings: postings.get(event.position) ?? [] })) },
    };
  };
}

/** `backup [--keep N]`: runs on the data directory, not over a runtime connection (cli/backup.ts). */
export function planBackup(args: string[]): BackupPlan | 'help' {
  const parsed = parseCommand('backup', args, { keep: { type: 'string' } }, 0);
  if (!parsed) return 'help';
  const keepValue = parsed.values.keep;
  if (keepValue === undefined) return { keep: undefined };
  const keep = Number(keepValue);
  if (!Number.isInteger(keep) || keep < 1)
    throw new UsageError(`--keep must be a whole number of at least 1, got "${keepValue}"`);
  return { keep };
}

/** Parses one command's arguments into the function that runs it; usage errors throw. */
export function planCommand(name: string, args: string[]): Command | 'help' {
  switch (name) {
    case 'replay': {
      const parsed = parseCommand(name, args, { projection: { type: 'string' }, balances: { type: 'boolean' } }, 0);
      if (!parsed) return 'help';
      const balances = parsed.flags.has('balances');
      const projection = parsed.values.projection;
      if (projection !== undefined && !isProjectionName(projection))
        throw new UsageError(`unknown projection "${projection}" (one of: ${PROJECTION_NAMES.join(', ')})`);
      if (balances && projection !== undefined) throw new UsageError('--balances and --projection exclude each other');
      return async (db, io) => {
        const outcome = await replayCommand(db, io, balances ? 'balances' : projection);
        return { exitCode: EXIT_OK, text: formatReplay(outcome), data: outcome };
      };
    }
    case 'verify':
      return parseCommand(name, args, {}, 0) ? verify : 'help';
    case 'status':
      return parseCommand(name, args, {}, 0) ? status : 'help';
    case 'balance': {
      const parsed = parseCommand(name, args, {}, 1);
      if (!parsed) return 'help';
      const account = parsed.positionals[0] ?? '';
      return async (db) => {
        const report = await accountBalance(db, account);
        return {
          exitCode: report.kind ? EXIT_OK : EXIT_FAILED,
          text: formatBalance(report),
          data: { ...report, found: report.kind !== undefined, kind: report.kind ?? null },
        };
      };
    }
    case 'events':
      return planEvents(name, args);
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}
