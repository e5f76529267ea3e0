/**
 * A reply waits only for what its caller reads next (api/read-after-reply.ts, decision 0004):
 * a payment for the balances and the histories, not for the daily statement figures. With the
 * statement_days projection stalled (a constraint no row meets makes each of its batches fail), a
 * transfer's reply still comes once the balances and histories have it - and a read of the
 * daily figures right after it waits until the statement_days projection has caught up, so it too
 * shows the transfer. The live events follow the same projections as the replies: the transfer
 * reaches the receiver's open stream while statement_days is still stalled.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, fundByUpi, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';
import { openEvents } from '../test/sse-client.ts';
import { waitUntil } from '../test/wait.ts';

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
      live: {},
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

/**
 * Stalls the statement_days projection until `release`: a constraint no row meets makes each of
 * its batches fail. Not a lock held in an open transaction: that would hold every projection
 * back at the xmin gate.
 */
async function stallStatementDays(): Promise<{ release: () => Promise<void> }> {
  const owner = new pg.Client({ connectionString: h.database.ownerUrl });
  await owner.connect();
  await owner.query('alter table read.statement_days add constraint stalled check (false) not valid');
  let released: Promise<void> | undefined;
  return {
    release: () =>
      (released ??= owner
        .query('alter table read.statement_days drop constraint if exists stalled')
        .then(() => owner.end())),
  };
}

async function transfer(rupees: number, reference: string): Promise<string> {
  const paid = await h.call({
    method: 'POST',
    url: '/api/transactions/transfer-funds',
    headers: { authorization: `Bearer ${asha.token}` },
    payload: { receiver: ravi.id, amount: rupees, reference, transactionPin: '1234' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return (paid.json().data as { transactionId: string }).transactionId;
}

it('answers a payment once the balances and histories have it, and a read of the daily figures catches up first', async () => {
  const before = await moneyOutToday(asha.token);
  const stall = await stallStatementDays();
  try {
    const counted = { ...waits };
    await transfer(123.45, 'sets');
    // Reached, not timed out: the reply did not wait for the stalled statement_days projection.
    expect({ reached: waits.reached - counted.reached, timedOut: waits.timedOut - counted.timedOut }).toEqual({
      reached: 1,
      timedOut: 0,
    });
    // The statement_days projector fails until the constraint goes, a moment after the read began.
    const read = moneyOutToday(asha.token);
    setTimeout(() => void stall.release(), 300);
    expect(await read).toBeCloseTo(before + 123.45, 2);
  } finally {
    await stall.release();
  }
});

it("delivers a payment to the receiver's live stream while the daily figures are stalled", async () => {
  const baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  const receiver = await openEvents(baseUrl, ravi.token);
  const stall = await stallStatementDays();
  try {
    await waitUntil('the stream connected', () => receiver.comments.length > 0);
    const transactionId = await transfer(7, 'live while stalled');
    const receipt = await receiver.next(
      'the money-received event',
      (event) =>
        event.event === 'money-received' &&
        (JSON.parse(event.data) as { transactionId?: string }).transactionId === transactionId,
    );
    expect(JSON.parse(receipt.data)).toMatchObject({ transactionId, amountPaise: '700', fromId: asha.id });
  } finally {
    receiver.close();
    await stall.release();
  }
});
