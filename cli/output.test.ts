/**
 * What scripts and operators read from the CLI: --json prints one JSON document with the
 * figures (exact paise), --version the package's version, the exit codes --help lists, amounts
 * in en-IN grouping and times in UTC in the human printouts, and diagnostics as pino JSON lines
 * on stderr - against a real Postgres.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { tablesView } from '../platform/database.ts';
import { allCaughtUp, drainUntil } from '../test/read-model.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { capturedIo } from './io.ts';
import { EXIT_ERROR, EXIT_FAILED, EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE, runCli } from './main.ts';

let testDb: TestDatabase<unknown>;
let ledger: Ledger;
const as = (actorId: string) => ({ actorId });
/** Two deposits of ₹61,728.39: ₹1,23,456.78 in all. */
const DEPOSIT_PAISE = 6_172_839n;
const TOTAL_PAISE = 2n * DEPOSIT_PAISE;

beforeAll(async () => {
  testDb = await createTestDatabase<unknown>();
  ledger = createLedger({ db: tablesView<LedgerTables>(testDb.db) });
  await ledger.openWallet({ accountId: 'meera', displayName: 'Meera' }, as('meera'));
  for (const depositId of ['d1', 'd2']) {
    await ledger.requestDeposit(
      {
        depositId,
        walletId: 'meera',
        amountPaise: DEPOSIT_PAISE,
        method: 'upi',
        reference: 'salary',
        details: { upiId: 'm@upi' },
      },
      as('meera'),
    );
    await ledger.settleDeposit({ depositId }, as('admin'));
  }
  await drainUntil(testDb.db, () => allCaughtUp(testDb.db));
});

afterAll(async () => {
  await testDb.drop();
});

async function cli(
  argv: string[],
  env: { DATABASE_URL: string } = { DATABASE_URL: testDb.url },
): Promise<{ code: number; out: string; err: string[] }> {
  const io = capturedIo();
  const code = await runCli(argv, io, { ...env, DATA_DIR: '/nonexistent' });
  return { code, out: io.stdout.join('\n'), err: io.stderr };
}

/** stdout must be exactly one JSON document. */
function parsed<T>(out: string): T {
  return JSON.parse(out) as T;
}

describe('--json', () => {
  it('verify: the trial balance in exact paise, ok, and exit 0', async () => {
    const result = await cli(['verify', '--json']);
    expect(result.code, result.err.join('\n')).toBe(EXIT_OK);
    const report = parsed<{ ok: boolean; totalPaise: string; trialBalance: { kind: string; balancePaise: string }[] }>(
      result.out,
    );
    expect(report.ok).toBe(true);
    expect(report.totalPaise).toBe('0');
    expect(report.trialBalance).toContainEqual(
      expect.objectContaining({ kind: 'wallet', balancePaise: String(TOTAL_PAISE) }),
    );
  });

  it('balance: postings, head and projection in paise; a missing account exits 1', async () => {
    const found = await cli(['balance', 'meera', '--json']);
    expect(found.code).toBe(EXIT_OK);
    expect(parsed(found.out)).toMatchObject({
      accountId: 'meera',
      found: true,
      kind: 'wallet',
      postingsPaise: String(TOTAL_PAISE),
      headPaise: String(TOTAL_PAISE),
      projectedPaise: String(TOTAL_PAISE),
      postings: '2',
    });
    const missing = await cli(['--json', 'balance', 'nobody']);
    expect(missing.code).toBe(EXIT_FAILED);
    expect(parsed(missing.out)).toMatchObject({ found: false, kind: null });
  });

  it('status, events and replay: one document each, times in UTC', async () => {
    const status = parsed<{ projections: { projection: string; eventsBehind: string; updatedAt: string }[] }>(
      (await cli(['status', '--json'])).out,
    );
    expect(status.projections.map((p) => p.projection).sort()).toEqual([
      'accounts',
      'history',
      'money_requests',
      'statement_days',
    ]);
    expect(status.projections.every((p) => p.eventsBehind === '0' && p.updatedAt.endsWith('Z'))).toBe(true);
    const events = parsed<{ events: { type: string; recordedAt: string; postings: { amountPaise: string }[] }[] }>(
      (await cli(['events', '--stream', 'deposit-d1', '--json'])).out,
    );
    expect(events.events.map((event) => event.type)).toEqual(['DepositRequested', 'DepositSettled']);
    expect(events.events[1]?.recordedAt).toMatch(/Z$/);
    expect(events.events[1]?.postings.map((line) => line.amountPaise).sort()).toEqual(['-6172839', '6172839']);
    const replay = parsed<{ reports: { projection: string; events: number }[] }>(
      (await cli(['replay', '--projection', 'accounts', '--json'])).out,
    );
    expect(replay.reports).toEqual([expect.objectContaining({ projection: 'accounts', events: 5 })]);
  });

  it('keeps diagnostics off stdout: pino JSON lines on stderr', async () => {
    const result = await cli(['status', '--json']);
    const lines = result.err.map((line) => JSON.parse(line) as { service: string; msg: string; database?: string });
    expect(lines).toContainEqual(
      expect.objectContaining({ service: 'cli', msg: 'database', database: 'DATABASE_URL' }),
    );
  });
});

describe('human output', () => {
  it('groups amounts the Indian way (₹1,23,456.78) and says times are UTC', async () => {
    expect((await cli(['balance', 'meera'])).out).toContain('₹1,23,456.78 (12345678 paise, 2 postings)');
    expect((await cli(['balance', 'funding:upi'])).out).toContain('-₹1,23,456.78');
    expect((await cli(['verify'])).out).toMatch(/wallet\s+1 accounts\s+₹1,23,456\.78/);
    const events = (await cli(['events', '--stream', 'deposit-d2'])).out;
    expect(events).toMatch(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/);
    expect(events).toContain('meera ₹61,728.39');
    expect((await cli(['events', '--help'])).out).toContain('Times are printed in UTC');
  });

  it('reads a --since without an offset as UTC', async () => {
    const [first] = parsed<{ events: { recordedAt: string }[] }>(
      (await cli(['events', '--stream', 'wallet-meera', '--json'])).out,
    ).events;
    const since = (first?.recordedAt ?? '').replace(/Z$/, '');
    // An operator in California: read as local time, the bound would be 8 hours later (no event).
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      const result = await cli(['events', '--stream', 'wallet-meera', '--since', since, '--json']);
      expect(parsed<{ events: unknown[] }>(result.out).events).toHaveLength(1);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('--version and exit codes', () => {
  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await cli(['--version'])).toMatchObject({ code: EXIT_OK, out: version });
    expect(parsed((await cli(['--version', '--json'])).out)).toEqual({ version });
  });

  it('lists the exit codes in --help and uses them', async () => {
    const help = (await cli(['--help'])).out;
    for (const line of ['0  ok', '1  a problem found', '2  usage error', '3  cannot connect', '4  the command failed'])
      expect(help).toContain(line);
    const usage = await cli(['events', '--limit', 'many', '--json']);
    expect(usage.code).toBe(EXIT_USAGE);
    expect(parsed(usage.out)).toMatchObject({ error: { exitCode: EXIT_USAGE } });
    const unreachable = await cli(['status', '--json'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/wallet' });
    expect(unreachable.code).toBe(EXIT_UNAVAILABLE);
    expect(parsed(unreachable.out)).toMatchObject({ error: { exitCode: EXIT_UNAVAILABLE } });
    // A database without the schema: the command runs and fails, with the hint.
    const unmigrated = await cli(['status'], { DATABASE_URL: testDb.url.replace(/\/[^/?]+(\?|$)/, '/postgres$1') });
    expect(unmigrated.code).toBe(EXIT_ERROR);
    expect(unmigrated.out).toBe('');
    expect(unmigrated.err.map((line) => JSON.parse(line) as { hint?: string })).toContainEqual(
      expect.objectContaining({ hint: expect.stringContaining('npm run migrate') }),
    );
  });
});
