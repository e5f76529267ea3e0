/**
 * The tests' one polling helper: it returns what the condition found, fails naming the
 * condition and what it last saw, and retries a throwing condition only when told to.
 */
import { describe, expect, it } from 'vitest';
import { readUntil, WaitTimeout, waitUntil } from './wait.ts';

describe('waitUntil', () => {
  it('returns the first value that is not false, null or undefined (0 and the empty string count)', async () => {
    let checks = 0;
    expect(await waitUntil('the third check', () => (++checks === 3 ? 'found' : undefined), { intervalMs: 1 })).toBe(
      'found',
    );
    expect(checks).toBe(3);
    expect(await waitUntil('zero', () => 0)).toBe(0);
  });

  it('fails naming the condition, its bound and the detail', async () => {
    const waiting = waitUntil('the answer to be 42', () => false, {
      timeoutMs: 30,
      intervalMs: 5,
      detail: () => 'the answer is 41',
    });
    await expect(waiting).rejects.toBeInstanceOf(WaitTimeout);
    await expect(waiting).rejects.toThrow(/^timed out after 30 ms waiting for the answer to be 42\nthe answer is 41$/);
  });

  it("ends at a condition's error unless told to retry it, then names the last one", async () => {
    let checks = 0;
    const failing = () => {
      checks += 1;
      throw new Error('connection refused');
    };
    await expect(waitUntil('a server', failing)).rejects.toThrow('connection refused');
    expect(checks).toBe(1);
    await expect(waitUntil('a server', failing, { timeoutMs: 30, intervalMs: 5, retryErrors: true })).rejects.toThrow(
      /waiting for a server\nlast error: connection refused/,
    );
    expect(checks).toBeGreaterThan(2);
  });
});

describe('readUntil', () => {
  it('returns the reading that satisfied it, falsy or not', async () => {
    let count = 3;
    expect(
      await readUntil(
        'the count to reach 0',
        () => --count,
        (value) => value === 0,
        { intervalMs: 1 },
      ),
    ).toBe(0);
  });

  it('fails with the last reading', async () => {
    await expect(
      readUntil(
        'the list to empty',
        () => ['left'],
        (list) => list.length === 0,
        { timeoutMs: 20, intervalMs: 5 },
      ),
    ).rejects.toThrow(/waiting for the list to empty\nlast read: \["left"\]$/);
  });
});
