/**
 * The Operations page's charts over time: each projection status the live stream pushes and
 * each trial balance fetched becomes a sample, and the charts draw a line per account kind and
 * per projection; the page itself polls nothing.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { applyLiveEvent } from '../../../app/live-cache.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { appendSample } from '../api/operations-samples.ts';
import { OperationsChartsCard } from './OperationsChartsCard.tsx';

function projection(name: string, lagEvents: number, checkpoint: string) {
  return {
    name,
    checkpoint,
    eventsApplied: 10,
    lagEvents,
    lagSeconds: 0,
    updatedAt: '2026-11-24T10:00:00.000Z',
    lastError: null,
    lastReplay: null,
  };
}

function overview(lagEvents: number, checkpoint: string) {
  return {
    projections: [projection('history', lagEvents, checkpoint), projection('statement_days', 3, checkpoint)],
    heldBackEvents: 0,
    heldBackSeconds: 0,
    holder: null,
  };
}

const TRIAL_BALANCE = {
  byKind: [
    { kind: 'funding', accounts: 3, balance: -5000, balancePaise: '-500000' },
    { kind: 'wallet', accounts: 2, balance: 5000, balancePaise: '500000' },
  ],
  total: 0,
  totalPaise: '0',
  balanced: true,
  fundingSources: [],
  lastVerify: null,
};

describe('operations charts', () => {
  it('draw a lag point per pushed status and fetch the trial balance again only when the ledger moved', async () => {
    const calls = fakeApi({
      '/api/admin/trial-balance': () => ({ body: { success: true, message: 'ok', data: TRIAL_BALANCE } }),
      '/api/admin/projections': () => ({ body: { success: true, message: 'ok', data: overview(0, '1.1') } }),
    });
    const client = createQueryClient();
    const count = (path: string) => calls.filter((call) => call.path === path).length;
    const { container } = renderWithApp(<OperationsChartsCard intervals={{ trialBalanceMs: 0 }} />, { client });
    await waitFor(() => expect(count('/api/admin/trial-balance')).toBe(1));
    // A sample is a moment: each push waits for the clock to move past the previous one.
    const push = async (lag: number, checkpoint: string) => {
      const before = Date.now();
      await waitFor(() => expect(Date.now()).toBeGreaterThan(before));
      await act(() =>
        applyLiveEvent(client, () => undefined, { name: 'projections', data: overview(lag, checkpoint) }),
      );
    };
    await waitFor(() => expect(screen.getByText(/Projection lag \(events\) \(1 sample/)).toBeTruthy());
    await push(5, '1.1');
    await push(10, '1.1');
    await waitFor(() => expect(screen.getByText(/Projection lag \(events\) \(3 samples/)).toBeTruthy());
    expect(count('/api/admin/trial-balance')).toBe(1);
    await push(0, '2.7');
    await waitFor(() => expect(count('/api/admin/trial-balance')).toBe(2));
    expect(count('/api/admin/projections')).toBe(1);
    const lagLines = container.querySelectorAll('[data-testid="projection-lag-chart"] .recharts-line-curve');
    expect(lagLines.length).toBe(2);
    for (const line of lagLines) expect((line.getAttribute('d') ?? '').split('L').length).toBeGreaterThanOrEqual(3);
    expect(container.querySelectorAll('[data-testid="trial-balance-chart"] .recharts-line-curve').length).toBe(3);
    expect(screen.getByText('statement_days')).toBeTruthy();
    expect(screen.getByText('wallet')).toBeTruthy();
  }, 30_000);
});

describe('samples', () => {
  it('keep the newest up to the limit and skip a repeat of the same moment', () => {
    let samples = appendSample([], { time: 1, a: 1 }, 2);
    samples = appendSample(samples, { time: 1, a: 9 }, 2);
    expect(samples).toEqual([{ time: 1, a: 1 }]);
    samples = appendSample(appendSample(samples, { time: 2, a: 2 }, 2), { time: 3, a: 3 }, 2);
    expect(samples.map((sample) => sample.time)).toEqual([2, 3]);
  });
});
