/**
 * A busy projector's round spacing (worker-loop.ts, createRoundSpacing): the long spacing while
 * no reply waits, the short one for a hold after a reply asks to hurry, and a hurry during the
 * long wait cuts it short. On fake timers, so the figures are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoundSpacing } from './worker-loop.ts';

const BUSY_MS = 10;
const UNHURRIED_MS = 50;
const HOLD_MS = 100;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Starts a wait and resolves with the fake time it ended at. */
function timedWait(spacing: ReturnType<typeof createRoundSpacing>): Promise<number> {
  return spacing.wait(() => undefined).then(() => performance.now());
}

describe('given a busy projector whose last round just started', () => {
  it('waits the long spacing when no reply waits', async () => {
    const spacing = createRoundSpacing(BUSY_MS, UNHURRIED_MS, HOLD_MS);
    spacing.roundStarted();
    const started = performance.now();
    const ended = timedWait(spacing);
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS);
    expect((await ended) - started).toBe(UNHURRIED_MS);
  });

  it('waits the short spacing when a reply asked to hurry before the wait', async () => {
    const spacing = createRoundSpacing(BUSY_MS, UNHURRIED_MS, HOLD_MS);
    spacing.roundStarted();
    const started = performance.now();
    spacing.hurry();
    const ended = timedWait(spacing);
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS);
    expect((await ended) - started).toBe(BUSY_MS);
  });

  it('cuts the long wait short when a reply asks to hurry during it', async () => {
    const spacing = createRoundSpacing(BUSY_MS, UNHURRIED_MS, HOLD_MS);
    spacing.roundStarted();
    const started = performance.now();
    const ended = timedWait(spacing);
    await vi.advanceTimersByTimeAsync(20);
    spacing.hurry();
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS);
    // Already past the short spacing from the round's start: the round starts at the hurry.
    expect((await ended) - started).toBe(20);
  });

  it('stays hurried across rounds while hurries keep coming, and forgets them after the hold', async () => {
    const spacing = createRoundSpacing(BUSY_MS, UNHURRIED_MS, HOLD_MS);
    spacing.hurry();
    spacing.roundStarted();
    let started = performance.now();
    let ended = timedWait(spacing);
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS);
    expect((await ended) - started).toBe(BUSY_MS);
    // No hurry since, but within the hold: the next round is still on the short spacing.
    spacing.roundStarted();
    started = performance.now();
    ended = timedWait(spacing);
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS);
    expect((await ended) - started).toBe(BUSY_MS);
    // Past the hold: the long spacing again.
    await vi.advanceTimersByTimeAsync(HOLD_MS);
    spacing.roundStarted();
    started = performance.now();
    ended = timedWait(spacing);
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS);
    expect((await ended) - started).toBe(UNHURRIED_MS);
  });

  it('does not wait when the spacing has already passed', async () => {
    const spacing = createRoundSpacing(BUSY_MS, UNHURRIED_MS, HOLD_MS);
    spacing.roundStarted();
    await vi.advanceTimersByTimeAsync(UNHURRIED_MS + 1);
    const spaced = vi.fn();
    await spacing.wait(spaced);
    expect(spaced).not.toHaveBeenCalled();
  });
});
