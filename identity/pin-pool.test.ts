/**
 * The PIN bcrypt pool is bounded: past PIN_POOL_MAX_QUEUE waiting tasks (or
 * PIN_TASK_TIMEOUT_MS for one), callers are refused with PIN_CHECK_BUSY, which the API
 * answers 503 in the envelope, instead of joining a queue without end.
 */
import { expect, it } from 'vitest';
import { API_ERRORS } from '../api/errors.ts';
import { isIdentityRejection } from './rejections.ts';
import { hashPin, PIN_POOL_MAX_QUEUE, PIN_POOL_THREADS } from './secrets.ts';

it('refuses bcrypt work past the queue bound with PIN_CHECK_BUSY (503), and still does the work it accepted', async () => {
  // 40 past the bound. Piscina admits a few tasks beyond maxQueue while its threads start (6
  // seen with 2 threads), and how many queued ones finish before the task timeout depends on
  // the machine's bcrypt speed: at least half of the 40 must be refused, none may hang.
  const burst = PIN_POOL_MAX_QUEUE + PIN_POOL_THREADS + 40;
  const outcomes = await Promise.allSettled(Array.from({ length: burst }, (_, index) => hashPin(String(1000 + index))));
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  const done = outcomes.filter((outcome) => outcome.status === 'fulfilled');
  expect(refused.length).toBeGreaterThanOrEqual(20);
  for (const outcome of refused) {
    const reason = (outcome as PromiseRejectedResult).reason as unknown;
    expect(isIdentityRejection(reason) && reason.code).toBe('PIN_CHECK_BUSY');
  }
  expect(done.length).toBeGreaterThanOrEqual(PIN_POOL_THREADS);
  expect(API_ERRORS.PIN_CHECK_BUSY.status).toBe(503);
}, 30_000);
