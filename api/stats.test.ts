/**
 * GET /api/stats over HTTP against a projected database: the landing page's figures are this
 * instance's own (wallets opened, payments made, money moved; the last two rounded down to
 * 100 payments and ₹1,000), 0 where nothing happened, read
 * from the read tables, served unchanged for STATS_CACHE_MS and fresh after it, public, and
 * documented in the envelope the contract describes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceStatsSchema, type InstanceStats } from '../contracts/system.ts';
import {
  ADMIN,
  fundByUpi,
  registeredUser,
  signIn,
  startProjectedHarness,
  verifierToken,
  type Harness,
} from '../test/app-harness.ts';
import { allCaughtUp } from '../test/read-model.ts';
import { waitUntil } from '../test/wait.ts';
import { STATS_CACHE_MS } from './routes/stats.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startProjectedHarness();
}, 120_000);

afterAll(async () => {
  await harness.close();
});

async function stats(): Promise<InstanceStats> {
  const response = await harness.call({ method: 'GET', url: '/api/stats' });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe(`public, max-age=${STATS_CACHE_MS / 1000}`);
  const body = response.json();
  expect(body).toMatchObject({ success: true, message: 'Statistics fetched' });
  return instanceStatsSchema.parse(body.data);
}

async function pay(token: string, receiver: string, amount: number): Promise<void> {
  const paid = await harness.call({
    method: 'POST',
    url: '/api/transactions/transfer-funds',
    headers: { authorization: `Bearer ${token}` },
    payload: { receiver, amount, reference: 'stats', transactionPin: '1234' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
}

async function freshStats(): Promise<InstanceStats> {
  await waitUntil('the projections to catch up', () => allCaughtUp(harness.database.db), { timeoutMs: 30_000 });
  harness.clock.advance(STATS_CACHE_MS);
  return stats();
}

describe('GET /api/stats', () => {
  it('answers the real figures: 0 payments on a new instance, then what was paid, cached in between', async () => {
    // The second admin who activates customers opens a wallet too: made before the first reading.
    await verifierToken(harness);
    const empty = await freshStats();
    expect(empty).toMatchObject({ payments: 0, moneyMoved: 0, moneyMovedPaise: '0' });
    const walletsBefore = empty.accounts;

    const adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
    const asha = await registeredUser(harness, 'asha.stats@example.in');
    const ravi = await registeredUser(harness, 'ravi.stats@example.in');
    await fundByUpi(harness, asha.token ?? '', adminToken, 5000);
    for (const amount of [250.5, 100]) await pay(asha.token ?? '', ravi.id, amount);
    await waitUntil('the projections to catch up', () => allCaughtUp(harness.database.db), { timeoutMs: 30_000 });

    // Within the cache window the first reading is served, whatever happened since.
    expect(await stats()).toEqual(empty);

    // Two payments, ₹350.50: below the public figures' steps, so nothing of them shows (exact
    // readings 30 s apart told anyone a single transfer's amount and time).
    const after = await freshStats();
    expect(after).toMatchObject({ accounts: walletsBefore + 2, payments: 0, moneyMoved: 0, moneyMovedPaise: '0' });
    expect(Date.parse(after.asOf)).toBeGreaterThan(Date.parse(empty.asOf));

    // ₹1,500 more: ₹1,850.50 moved in all, published as ₹1,000; three payments, as 0.
    await pay(asha.token ?? '', ravi.id, 1500);
    const more = await freshStats();
    expect(more).toMatchObject({ payments: 0, moneyMoved: 1000, moneyMovedPaise: '100000' });
    // A further small payment changes nothing that is published.
    await pay(asha.token ?? '', ravi.id, 120);
    const { asOf: _later, ...later } = await freshStats();
    const { asOf: _before, ...before } = more;
    expect(later).toEqual(before);
  });

  // Issue 41: "Wallets opened 2" on a new instance counted its two admins.
  it('counts customers: not the admins, not an account waiting for verification, not a suspended one', async () => {
    await verifierToken(harness);
    const before = (await freshStats()).accounts;
    const adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
    const waiting = await registeredUser(harness, 'waiting.stats@example.in', { activate: false });
    const suspended = await registeredUser(harness, 'suspended.stats@example.in');
    await registeredUser(harness, 'counted.stats@example.in');
    const suspend = await harness.call({
      method: 'POST',
      url: '/api/users/update-user-verified-status',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { selectedUser: suspended.id, isVerified: false },
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect(waiting.token).toBeUndefined();
    expect((await freshStats()).accounts).toBe(before + 1);
    // Every account on the instance, by kind: the figure is the verified non-admins alone.
    const { rows } = await sql<{ admins: number; customers: number; others: number }>`
      select count(*) filter (where is_admin)::int as admins,
             count(*) filter (where not is_admin and is_verified)::int as customers,
             count(*) filter (where not is_admin and not is_verified)::int as others
        from identity.users`.execute(harness.database.db);
    expect(rows[0]).toMatchObject({ admins: 2, others: 2 });
    expect((await freshStats()).accounts).toBe(rows[0]?.customers);
  });

  it('is public: no session is needed', async () => {
    const response = await harness.call({ method: 'GET', url: '/api/stats' });
    expect(response.statusCode).toBe(200);
    expect(response.json().success).toBe(true);
  });
});
