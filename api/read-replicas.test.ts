/**
 * READ_DATABASE_URL against a real hot standby (test/hot-standby.ts: a PostgreSQL 15 primary
 * and a pg_basebackup copy streaming from it): the read tables' queries are answered by the
 * standby, a read after a command's reply waits for the standby to replay it (and reads the
 * primary past READ_REPLICA_MAX_WAIT_MS), the API process (bin/server.ts) does the same with
 * READ_DATABASE_URL in its environment, and a standby that is down or stuck (a read blocked
 * there is cancelled after REPLICA_STATEMENT_TIMEOUT_MS) costs no read.
 * Where a read was served shows in two ways: the /metrics counter, and rows changed on the
 * primary alone while the standby's replay is paused (the standby still shows the old ones).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config.ts';
import { REPLICA_STATEMENT_TIMEOUT_MS, openDatabase, withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import {
  ADMIN,
  TEST_PIN_PEPPER,
  TEST_SECRET,
  registeredUser,
  signIn,
  startProjectedHarness,
  type Harness,
  fundByUpi,
} from '../test/app-harness.ts';
import { startPrimaryWithStandby, type PrimaryWithStandby } from '../test/hot-standby.ts';
import { processEnvironment, spawnEntryPoint, stopProcess, waitForHealth } from '../test/processes.ts';
import { waitUntil } from '../test/wait.ts';

/** Long enough that a standby resumed after RESUME_AFTER_MS is waited for, whatever the machine's load. */
const MAX_WAIT_MS = 3_000;
const RESUME_AFTER_MS = 300;

let servers: PrimaryWithStandby;
let harness: Harness;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };

beforeAll(async () => {
  servers = await startPrimaryWithStandby();
  const { db, pool } = openDatabase<unknown>({ connectionString: servers.primaryUrl, applicationName: 'wallet-test' });
  harness = await startProjectedHarness(
    { readReplicaMaxWaitMs: MAX_WAIT_MS },
    {
      database: {
        url: servers.primaryUrl,
        runtimeUrl: servers.primaryUrl,
        ownerUrl: servers.primaryOwnerUrl,
        name: 'wallet',
        db,
        pool,
        drop: () => db.destroy(),
      },
      replicaUrls: [servers.standbyUrl],
    },
  );
  const user = async (email: string) => {
    const registered = await registeredUser(harness, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha@example.in');
  ravi = await user('ravi@example.in');
  await fund(asha, 5_000);
  expect(
    (await post(ravi.token, '/api/requests/send-request', { receiver: asha.id, amount: 40, reference: 'tea' }))
      .statusCode,
  ).toBe(200);
  await servers.caughtUp();
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await servers?.stop();
});

async function post(token: string, url: string, payload?: Record<string, unknown>) {
  return harness.call({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, ...(payload ? {} : { 'content-type': 'application/json' }) },
    ...(payload ? { payload } : {}),
  });
}

async function fund(user: { token: string }, rupees: number): Promise<void> {
  await fundByUpi(harness, user.token, await signIn(harness, ADMIN.email, ADMIN.password), rupees);
}

/** What the API shows of asha through each route over the read tables. */
async function ashaReads() {
  const info = await post(asha.token, '/api/users/get-user-info');
  const historyReply = await post(asha.token, '/api/transactions/get-all-transactions-by-user', { page: 1 });
  const requests = await harness.call({
    method: 'GET',
    url: '/api/requests/get-all-requests-by-user',
    headers: { authorization: `Bearer ${asha.token}` },
  });
  const today = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);
  const charts = await harness.call({
    method: 'GET',
    url: `/api/transactions/statement/charts?from=${today}&to=${today}`,
    headers: { authorization: `Bearer ${asha.token}` },
  });
  for (const reply of [info, historyReply, requests, charts]) expect(reply.statusCode, reply.body).toBe(200);
  return {
    balance: (info.json().data as { balance: number }).balance,
    history: (historyReply.json().data as { items: { amount: number; reference: string }[] }).items,
    requests: (requests.json().data as { reference: string }[]).map((request) => request.reference),
    closingBalance: (charts.json().data as { closingBalance: number }).closingBalance,
  };
}

/** wallet_read_replica_reads_total by outcome, from /metrics. */
async function servedBy(): Promise<Record<string, number>> {
  const scrape = await harness.call({ method: 'GET', url: '/metrics' });
  const counts: Record<string, number> = { replica: 0, primary_lagging: 0, primary_unavailable: 0 };
  for (const match of scrape.body.matchAll(/^wallet_read_replica_reads_total\{outcome="(\w+)"\} (\d+)$/gm))
    if (match[1] && match[2]) counts[match[1]] = Number(match[2]);
  return counts;
}

function since(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([outcome, count]) => [outcome, count - (before[outcome] ?? 0)]));
}

async function transfer(rupees: number, reference: string): Promise<void> {
  const reply = await post(asha.token, '/api/transactions/transfer-funds', {
    receiver: ravi.id,
    amount: rupees,
    reference,
    transactionPin: '1234',
  });
  expect(reply.statusCode, reply.body).toBe(200);
}

/** Changes asha's read rows on the primary alone (no checkpoint moves): only a read there shows them. */
async function touchReadRowsOnPrimary(sign: 1 | -1): Promise<void> {
  const db = harness.database.db;
  const suffix = sign === 1 ? "' (primary)'" : "''";
  await sql`update read.balances set balance_paise = balance_paise + ${sign * 100} where account_id = ${asha.id}`.execute(
    db,
  );
  await sql`update read.statement_days set closing_balance_paise = closing_balance_paise + ${sign * 100} where account_id = ${asha.id}`.execute(
    db,
  );
  await sql`update read.history set reference = replace(reference, ' (primary)', '') || ${sql.raw(suffix)} where account_id = ${asha.id}`.execute(
    db,
  );
  await sql`update read.money_requests set reference = replace(reference, ' (primary)', '') || ${sql.raw(suffix)} where payer_id = ${asha.id}`.execute(
    db,
  );
}

describe('READ_DATABASE_URL: the read tables on a hot standby', () => {
  it('answers the balance, history, money requests and statement charts from the standby', async () => {
    const before = await ashaReads();
    expect(before).toMatchObject({ balance: 5_000, closingBalance: 5_000, requests: ['tea'] });
    await servers.pauseReplay();
    try {
      await touchReadRowsOnPrimary(1);
      const counted = await servedBy();
      // Nothing a client must see is missing on the standby, so it answers - with the rows it has.
      expect(await ashaReads()).toEqual(before);
      expect(since(counted, await servedBy())).toEqual({ replica: 4, primary_lagging: 0, primary_unavailable: 0 });
    } finally {
      await servers.resumeReplay();
    }
    await servers.caughtUp();
    const replayed = await ashaReads();
    expect(replayed).toMatchObject({ balance: 5_001, closingBalance: 5_001, requests: ['tea (primary)'] });
    expect(replayed.history.every((row) => row.reference.endsWith(' (primary)'))).toBe(true);
    await touchReadRowsOnPrimary(-1);
    await servers.caughtUp();
    expect(await ashaReads()).toEqual(before);
  });

  it("waits for the standby to replay a command's reply before reading there", async () => {
    await servers.pauseReplay();
    let resumed: Promise<void> | undefined;
    try {
      await transfer(100, 'lunch');
      const counted = await servedBy();
      // The reads start while replay is paused; it resumes a moment later, within the bound. Not a
      // wait for the system: the resume is the scripted event the reads must wait out.
      resumed = new Promise((resolve) => setTimeout(resolve, RESUME_AFTER_MS)).then(() => servers.resumeReplay());
      const after = await ashaReads();
      expect(after.balance).toBe(4_900);
      expect(after.closingBalance).toBe(4_900);
      expect(after.history[0]).toMatchObject({ amount: 100, reference: 'lunch' });
      expect(since(counted, await servedBy())).toEqual({ replica: 4, primary_lagging: 0, primary_unavailable: 0 });
    } finally {
      await (resumed ?? servers.resumeReplay());
    }
  });

  it('reads the primary when the standby has not replayed the reply within READ_REPLICA_MAX_WAIT_MS', async () => {
    await servers.pauseReplay();
    try {
      await transfer(50, 'snacks');
      const counted = await servedBy();
      const info = await post(asha.token, '/api/users/get-user-info');
      expect((info.json().data as { balance: number }).balance).toBe(4_850);
      const history = await post(asha.token, '/api/transactions/get-all-transactions-by-user', { page: 1 });
      expect((history.json().data as { items: unknown[] }).items[0]).toMatchObject({ amount: 50, reference: 'snacks' });
      expect(since(counted, await servedBy())).toEqual({ replica: 0, primary_lagging: 2, primary_unavailable: 0 });
    } finally {
      await servers.resumeReplay();
    }
    await servers.caughtUp();
  });

  it('is what the API process (bin/server.ts) does with READ_DATABASE_URL set', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-replica-'));
    const url = `http://127.0.0.1:${await freePort()}`;
    const env = processEnvironment(
      {
        DATABASE_URL: servers.primaryUrl,
        READ_DATABASE_URL: servers.standbyUrl,
        PORT: new URL(url).port,
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        // The harness's secrets: its sessions are valid here too.
        JWT_SECRET: TEST_SECRET,
        PIN_PEPPER: TEST_PIN_PEPPER,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        RUN_WORKERS: 'false',
      },
      ['EMBEDDED_POSTGRES_PORT', 'DATABASE_OWNER_URL', 'METRICS_TOKEN'],
    );
    const server = spawnEntryPoint('bin/server.ts', env);
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitForHealth(url, server, { timeoutMs: 90_000, log: () => output.slice(-4000) });
      const info = await fetch(`${url}/api/users/get-user-info`, {
        method: 'POST',
        headers: { authorization: `Bearer ${asha.token}` },
      });
      expect(info.status).toBe(200);
      const expected = (await post(asha.token, '/api/users/get-user-info')).json().data as { balance: number };
      expect(((await info.json()) as { data: { balance: number } }).data.balance).toBe(expected.balance);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^wallet_read_replica_reads_total\{outcome="replica"\} 1$/m);
    } finally {
      await stopProcess(server, 15_000);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('reads the primary when a read hangs on the standby, cancelled after REPLICA_STATEMENT_TIMEOUT_MS', async () => {
    // An exclusive lock taken on the primary is replayed on the standby, where it blocks every
    // read of the table until the primary's transaction ends: a stuck replica. The read's
    // statement there is cancelled and the read goes to the primary, which waits only for
    // this test's transaction.
    const { balance } = await ashaReads();
    const locker = new pg.Client(servers.primaryOwnerUrl);
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table read.balances in access exclusive mode');
      await expect
        .poll(
          async () =>
            (
              await withClient(servers.standbyUrl, (client) =>
                client.query(
                  "select 1 from pg_locks where relation = 'read.balances'::regclass and mode = 'AccessExclusiveLock'",
                ),
              )
            ).rowCount,
          { timeout: 10_000, interval: 50 },
        )
        .toBe(1);
      const counted = await servedBy();
      const started = performance.now();
      const read = ashaReads();
      // The standby's statement must be cancelled first (it would otherwise be answered by the
      // standby once the commit replays): the read then waits on the primary for this lock.
      await waitUntil(
        "the balance's read, cancelled on the standby, to wait for the lock on the primary",
        async () =>
          (
            await withClient(servers.primaryOwnerUrl, (client) =>
              client.query("select 1 from pg_locks where relation = 'read.balances'::regclass and not granted"),
            )
          ).rowCount === 1,
        { timeoutMs: REPLICA_STATEMENT_TIMEOUT_MS + 15_000 },
      );
      await locker.query('commit');
      const after = await read;
      expect(after.balance).toBe(balance);
      expect(performance.now() - started).toBeGreaterThan(REPLICA_STATEMENT_TIMEOUT_MS);
      const served = since(counted, await servedBy());
      // The balance's read was cancelled on the standby; the other three went wherever the
      // standby's 1 s rest after that failure sent them.
      expect(served.primary_unavailable).toBeGreaterThanOrEqual(1);
      expect(served).toMatchObject({ primary_lagging: 0 });
      expect((served.replica ?? 0) + (served.primary_unavailable ?? 0)).toBe(4);
    } finally {
      await locker.end();
    }
  });

  it('answers from the primary while the standby is down', async () => {
    await servers.stopStandby();
    await transfer(25, 'bus');
    const counted = await servedBy();
    const after = await ashaReads();
    expect(after.balance).toBe(4_825);
    expect(after.history[0]).toMatchObject({ amount: 25, reference: 'bus' });
    expect(after.requests).toEqual(['tea']);
    expect(since(counted, await servedBy())).toEqual({ replica: 0, primary_lagging: 0, primary_unavailable: 4 });
  });
});

describe('READ_DATABASE_URL configuration', () => {
  it('takes one or more comma-separated URLs, none by default, and refuses anything else', () => {
    expect(loadConfig({}).READ_DATABASE_URL).toEqual([]);
    expect(
      loadConfig({ READ_DATABASE_URL: 'postgres://app@replica-1:5432/wallet, postgres://app@replica-2:5432/wallet' })
        .READ_DATABASE_URL,
    ).toEqual(['postgres://app@replica-1:5432/wallet', 'postgres://app@replica-2:5432/wallet']);
    expect(loadConfig({}).READ_REPLICA_MAX_WAIT_MS).toBe(200);
    expect(() => loadConfig({ READ_DATABASE_URL: 'postgres://app@replica-1/wallet,replica-2' })).toThrow(
      /READ_DATABASE_URL/,
    );
    expect(() => loadConfig({ READ_REPLICA_MAX_WAIT_MS: '-1' })).toThrow(/READ_REPLICA_MAX_WAIT_MS/);
  });
});
