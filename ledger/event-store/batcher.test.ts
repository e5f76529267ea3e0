/**
 * The group-commit policy on its own (no database): when a request goes, how the waiting
 * requests are shared out, and that each caller gets its own outcome. The batches' database
 * side is ledger/group-commit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createBatcher, type Settled } from './batcher.ts';

/**
 * A `send` that answers each request with its double, recording batch sizes and overlap. A
 * batch takes `delayMs` plus `perRequestMs` a request, as a database batch does: a batch of
 * one comes back sooner than a batch of thirty.
 */
function recordingSend(delayMs: number, perRequestMs = 0) {
  const sizes: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = async (requests: readonly number[]): Promise<Settled<number>[]> => {
    sizes.push(requests.length);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Not a wait for the system: this fake database's latency.
    await new Promise((resolve) => setTimeout(resolve, delayMs + perRequestMs * requests.length));
    inFlight -= 1;
    return requests.map((request) =>
      request < 0 ? { ok: false, error: new Error(`refused ${request}`) } : { ok: true, value: request * 2 },
    );
  };
  return { send, sizes, maxInFlight: () => maxInFlight };
}

describe('the group-commit policy', () => {
  it('sends a request at once when no batch is on its way', async () => {
    const recorder = recordingSend(1);
    const append = createBatcher({ maxBatchSize: 64, maxInFlight: 2 }, recorder.send);
    const answer = append(21);
    // Sent synchronously, before any timer or turn of the event loop.
    expect(recorder.sizes).toEqual([1]);
    await expect(answer).resolves.toBe(42);
  });

  it('answers each caller its own outcome', async () => {
    const recorder = recordingSend(1);
    const append = createBatcher({ maxBatchSize: 64, maxInFlight: 2 }, recorder.send);
    const answers = await Promise.allSettled([1, -2, 3, -4, 5].map((request) => append(request)));
    expect(answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : String(answer.reason)))).toEqual([
      2,
      'Error: refused -2',
      6,
      'Error: refused -4',
      10,
    ]);
  });

  it('shares closed-loop callers evenly over the slots instead of sending stragglers alone', async () => {
    const recorder = recordingSend(1, 0.2);
    const append = createBatcher({ maxBatchSize: 64, maxInFlight: 2 }, recorder.send);
    const clients = 32;
    const rounds = 30;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let round = 0; round < rounds; round++) await append(client);
      }),
    );
    expect(recorder.maxInFlight()).toBeLessThanOrEqual(2);
    expect(recorder.sizes.reduce((sum, size) => sum + size, 0)).toBe(clients * rounds);
    // Past the first request (sent alone, at once), every batch carries about half the clients.
    const later = recorder.sizes.slice(2);
    expect(Math.min(...later)).toBeGreaterThanOrEqual(clients / 4);
    expect(later.length).toBeLessThanOrEqual((clients * rounds) / (clients / 4));
  });

  it('never sends more than maxBatchSize at once', async () => {
    const recorder = recordingSend(1);
    const append = createBatcher({ maxBatchSize: 8, maxInFlight: 2 }, recorder.send);
    await Promise.all(Array.from({ length: 100 }, (_, index) => append(index)));
    expect(Math.max(...recorder.sizes)).toBeLessThanOrEqual(8);
    expect(recorder.sizes.reduce((sum, size) => sum + size, 0)).toBe(100);
  });
});
