/** A replay run's pace and time left, as the Operations page shows them. */
import { describe, expect, it } from 'vitest';
import type { ReplayRun } from '../api/types.ts';
import { replayPace } from './replay-pace.ts';

const STARTED = Date.parse('2026-11-28T10:00:00.000Z');

function run(patch: Partial<ReplayRun>): ReplayRun {
  return {
    id: '1',
    projection: 'history',
    state: 'running',
    requestedBy: 'admin',
    processed: 0,
    total: 1_000_000,
    error: null,
    requestedAt: new Date(STARTED).toISOString(),
    startedAt: new Date(STARTED).toISOString(),
    finishedAt: null,
    ...patch,
  };
}

describe('replayPace', () => {
  it('says the rate so far and the seconds left at that rate', () => {
    expect(replayPace(run({ processed: 250_000 }), STARTED + 5_000)).toEqual({
      kind: 'loading',
      eventsPerSecond: 50_000,
      secondsLeft: 15,
    });
  });

  it('says finishing once every event is applied, and nothing before a start or after the end', () => {
    expect(replayPace(run({ processed: 1_000_000 }), STARTED + 9_000)).toEqual({ kind: 'finishing' });
    expect(replayPace(run({ processed: 0 }), STARTED + 1_000)).toEqual({ kind: 'none' });
    expect(replayPace(run({ state: 'queued', startedAt: null }), STARTED)).toEqual({ kind: 'none' });
    expect(replayPace(run({ state: 'done', processed: 1_000_000 }), STARTED + 20_000)).toEqual({ kind: 'none' });
    expect(replayPace(undefined, STARTED)).toEqual({ kind: 'none' });
  });
});
