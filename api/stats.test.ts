/**
 * GET /api/stats over HTTP against a projected database: the landing page's figures are this
 * instance's own (wallets opened, payments made, money moved), 0 where nothing happened, read
 * from the read tables, served unchanged for STATS_CACHE_MS and fresh after it, public, and
 * documented in the envelope the contract describes.
 */
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
    await fundByUpi(harness, asha.token ?? '', adminToken, 1000);
    for (const amount of [250.5, 100]) {
      const paid = await harness.call({
        method: 'POST',
        url: '/api/transactions/transfer-funds',
        headers: { authorization: `Bearer ${asha.token ?? ''}` },
        payload: { receiver: ravi.id, amount, reference: 'stats', transactionPin: '1234' },
      });
      expect(paid.statusCode, paid.body).toBe(200);
    }
    await waitUntil('the projections to catch up', () => allCaughtUp(harness.database.db), { timeoutMs: 30_000 });

    // Within the cache window the first reading is served, whatever happened since.
    expect(await stats()).toEqual(empty);

    const after = await freshStats();
    // A deposit is not a payment; the two transfers are.
    expect(after).toMatchObject({
      accounts: walletsBefore + 2,
      payments: 2,
      moneyMoved: 350.5,
      moneyMovedPaise: '35050',
    });
    expect(Date.parse(after.asOf)).toBeGreaterThan(Date.parse(empty.asOf));
  });

  it('is public: no session is needed', async () => {
    const response = await harness.call({ method: 'GET', url: '/api/stats' });
    expect(response.statusCode).toBe(200);
    expect(response.json().success).toBe(true);
  });
});
