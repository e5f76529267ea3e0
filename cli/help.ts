/**
 * The CLI's help texts and exit codes: what `npm run ledger -- --help` and each command's
 * `--help` print. The exit codes are listed here once and used by cli/main.ts.
 */
import { PROJECTION_NAMES } from '../projections/index.ts';

/** The command did what was asked and found nothing wrong. */
export const EXIT_OK = 0;
/** The command ran and found a problem: verify's differences, no such account. */
export const EXIT_FAILED = 1;
/** Bad arguments: nothing was run. */
export const EXIT_USAGE = 2;
/** The database could not be reached (or the embedded one started). */
export const EXIT_UNAVAILABLE = 3;
/** The command failed while running (not migrated, missing grants, an unexpected error). */
export const EXIT_ERROR = 4;

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 10_000;

const COMMON = `Options for every command:
  --json      print one JSON document on stdout (figures in paise as decimal strings,
              times in UTC ISO 8601); diagnostics stay on stderr
  --help      this command's help

Exit codes:
  ${EXIT_OK}  ok
  ${EXIT_FAILED}  a problem found (verify: differences; balance: no such account)
  ${EXIT_USAGE}  usage error (nothing was run)
  ${EXIT_UNAVAILABLE}  cannot connect to the database
  ${EXIT_ERROR}  the command failed (e.g. the database is not migrated)

Amounts are in rupees with Indian digit grouping (₹1,23,456.78) and exact paise beside them.
Times are printed in UTC (ISO 8601, ending in Z). Diagnostics (connection notes, warnings,
failures) are JSON lines (pino) on stderr; stdout carries only the output.`;

export const HELP: Readonly<Record<string, string>> = {
  main: `Usage: npm run ledger -- <command> [options]

Commands:
  replay [--projection NAME]   rebuild read tables from the first event and swap them in
  verify                       recompute balances from postings; compare heads and projections
  status                       projection checkpoints and lag
  balance ACCOUNT              an account's balance from postings, head and projection
  events [filters]             list events (--stream, --account, --since, --until, --limit)
  backup [--keep N]            an online backup of the embedded Postgres into var/backups/

  --version                    the version of this tool

Run \`npm run ledger -- <command> --help\` for a command's options.
Database: DATABASE_URL, or the embedded Postgres in var/ (the running one when npm start runs).

${COMMON}`,
  replay: `Usage: npm run ledger -- replay [--projection NAME | --balances] [--json]

Rebuilds projections into fresh tables from position 0, then swaps them in atomically while
the app keeps serving. Prints a progress bar per projection on a terminal's stderr (otherwise
a JSON line each second and at each phase: load, indexes, swap, done - with events applied,
events/s and seconds left), then the rate in events/s.
  --projection NAME   only this projection (${PROJECTION_NAMES.join(', ')}); default: all
  --balances          only the balances (each account's, from its newest posting: seconds), up to the
                      accounts projection's checkpoint; its statement lines and directory stay as they are

${COMMON}`,
  verify: `Usage: npm run ledger -- verify [--json]

Recomputes every balance from the postings and compares it with the wallet heads
(ledger.accounts), the balance projection, the statement lines and the daily figures; checks
that all postings and each event's postings sum to zero; prints the trial balance. Exits ${EXIT_FAILED} naming each difference.

${COMMON}`,
  status: `Usage: npm run ledger -- status [--json]

Shows each projection's checkpoint, events applied, lag in events and seconds, last error,
and any open transaction that holds the projections back.

${COMMON}`,
  balance: `Usage: npm run ledger -- balance ACCOUNT [--json]

Shows ACCOUNT's balance computed from postings, its account head (wallets) and the balance
projection. Example: npm run ledger -- balance funding:upi

${COMMON}`,
  backup: `Usage: npm run ledger -- backup [--keep N] [--json]

Writes a consistent online backup of the embedded Postgres (the default when DATABASE_URL is
unset; the running one of \`npm start\`, or one started for this command) into
var/backups/<UTC time>/: data/, a copy of var/postgres with its backup_label and the WAL it
needs to replay to a consistent point, and manifest.json. The app keeps serving meanwhile.
  --keep N   then keep only the N newest backups and remove older ones

Restore: stop npm start, move var/postgres aside, copy var/backups/<time>/data to var/postgres
keeping mode 0700 and owner (cp -a), start again. Not for DATABASE_URL: back that server up with
its own tools (pg_basebackup, pg_dump).

${COMMON}`,
  events: `Usage: npm run ledger -- events [--stream ID] [--account ID] [--since TIME] [--until TIME] [--limit N] [--json]

Lists events in position order.
  --stream ID     one stream, e.g. transfer-<id>, deposit-<id>, request-<id>, wallet-<id>
  --account ID    events that post to or name this account
  --since TIME    recorded at or after TIME (ISO 8601, e.g. 2026-01-31 or 2026-01-31T10:00:00Z;
                  a time without an offset is UTC)
  --until TIME    recorded before TIME
  --limit N       at most N events (default ${DEFAULT_EVENT_LIMIT}, at most ${MAX_EVENT_LIMIT})

${COMMON}`,
};
