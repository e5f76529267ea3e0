/**
 * A reply waits only for what its caller reads next (api/read-after-reply.ts, decision 0004):
 * a payment for the balances and the histories, not for the daily statement figures. With the
 * statement_days projection stalled (a constraint no row meets makes each of its batches fail), a
 * transfer's reply still comes once the balances and histories have it - and a read of the
 * daily figures right after it waits until the statement_days projection has caught up, so it too
 * shows the transfer.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, fundByUpi, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';

let h: Harness;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
const waits = { reached: 0, timedOut: 0 };

beforeAll(async () => {
  // A bound long enough that a reply waiting for the stalled projection would be seen timing out.
  h = await startProjectedHarness(
    { readAfterReplyTimeoutMs: 3_000, readYourWritesTimeoutMs: 5_000 },
    {
      readAfterReply: {
        reached: () => (waits.reached += 1),
        timedOut: () => (waits.timedOut += 1),
      },
    },
  );
  const adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  const user = async (email: string) => {
    const registered = await registeredUser(h, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha.sets@example.in');
  ravi = await user('ravi.sets@example.in');
  await fundByUpi(h, asha.token, adminToken, 2_000);
}, 120_000);

afterAll(async () => {
  await h.close();
});

/** Today as a statement counts days (India Standard Time). */
function todayInIndia(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
}

async function moneyOutToday(token: string): Promise<number> {
  const day = todayInIndia();
  const response = await h.call({
    method: 'GET',
    url: `/api/transactions/statement/charts?from=${day}&to=${day}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { moneyOut: number }).moneyOut;
}

it('answers a payment once the balances and histories have it, and a read of the daily figures catches up first', async () => {
  const before = await moneyOutToday(asha.token);
  // Not a lock held in an open transaction: that would hold every projection back at the xmin gate.
  const owner = new pg.Client({ connectionString: h.database.ownerUrl });
  await owner.connect();
  const stalled = (on: boolean) =>
    owner.query(
      on
        ? 'alter table read.statement_days add constraint stalled check (false) not valid'
        : 'alter table read.statement_days drop constraint if exists stalled',
    );
  try {
    await stalled(true);
    const counted = { ...waits };
    const paid = await h.call({
      method: 'POST',
      url: '/api/transactions/transfer-funds',
      headers: { authorization: `Bearer ${asha.token}` },
      payload: { receiver: ravi.id, amount: 123.45, reference: 'sets', transactionPin: '1234' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    // Reached, not timed out: the reply did not wait for the stalled statement_days projection.
    expect({ reached: waits.reached - counted.reached, timedOut: waits.timedOut - counted.timedOut }).toEqual({
      reached: 1,
      timedOut: 0,
    });
    // The statement_days projector fails until the constraint goes, a moment after the read began.
    const read = moneyOutToday(asha.token);
    setTimeout(() => void stalled(false), 300);
    expect(await read).toBeCloseTo(before + 123.45, 2);
  } finally {
    await stalled(false);
    await owner.end();
  }
});
