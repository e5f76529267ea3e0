/**
 * The wait after a command is bounded: when the projections are slower than
 * READ_AFTER_REPLY_TIMEOUT_MS, the command still answers success at the bound (it did
 * commit), and the timeout is counted. Replies that are not commands' (reads, refusals) never
 * wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCheckpointOf } from './read-after-reply.ts';
import { registeredUser, startProjectedHarness, type Harness } from '../test/app-harness.ts';

const waits = { reached: 0, timedOut: 0 };
let h: Harness;
let user: { id: string; token: string };

beforeAll(async () => {
  h = await startProjectedHarness(
    { readAfterReplyTimeoutMs: 300 },
    {
      // Each projector batch takes 2 s: far past the 300 ms bound.
      projector: { pauseBeforeCommitMs: 2_000 },
      readAfterReply: { reached: () => (waits.reached += 1), timedOut: () => (waits.timedOut += 1) },
    },
  );
  const registered = await registeredUser(h, 'patient@example.in');
  user = { id: registered.id, token: registered.token ?? '' };
}, 120_000);

afterAll(async () => {
  await h.close();
});

it('answers success at the bound and counts the timeout', async () => {
  const before = { ...waits };
  const started = performance.now();
  const response = await h.call({
    method: 'POST',
    url: '/api/transactions/deposit-funds',
    headers: { authorization: `Bearer ${user.token}` },
    payload: {
      amount: 10,
      reference: 'top up',
      transactionPin: '1234',
      paymentMethod: 'upi',
      upiDetails: { upiId: 'me@okbank' },
    },
  });
  const elapsed = performance.now() - started;
  expect(response.json()).toMatchObject({ success: true, data: { status: 'pending' } });
  expect(elapsed).toBeGreaterThanOrEqual(290);
  expect(elapsed).toBeLessThan(1_900);
  expect(waits.timedOut).toBe(before.timedOut + 1);
});

describe('what counts as a command reply', () => {
  it('is a success envelope with a checkpoint; reads and refusals are not', () => {
    expect(commandCheckpointOf({ success: true, message: 'ok', data: { checkpoint: '912.4401' } })).toBe('912.4401');
    expect(commandCheckpointOf({ success: true, message: 'ok', data: [{ checkpoint: '1.1' }] })).toBeUndefined();
    expect(commandCheckpointOf({ success: false, message: 'no', data: { checkpoint: '1.1' } })).toBeUndefined();
    expect(commandCheckpointOf({ success: true, message: 'ok', data: { checkpoint: null } })).toBeUndefined();
    expect(commandCheckpointOf({ success: true, message: 'ok' })).toBeUndefined();
  });
});
