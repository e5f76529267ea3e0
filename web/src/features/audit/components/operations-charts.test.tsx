/**
 * The Operations page's charts over time: each answer of the trial balance and projection
 * status endpoints becomes a sample, and the charts draw a line per account kind and per
 * projection through the samples taken while the page is open.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { appendSample } from '../api/operations-samples.ts';
import { OperationsChartsCard } from './OperationsChartsCard.tsx';

function projection(name: string, lagEvents: number) {
  return {
    name,
    checkpoint: '1.1',
    eventsApplied: 10,
    lagEvents,
    lagSeconds: 0,
    updatedAt: '2026-11-24T10:00:00.000Z',
    lastError: null,
    lastReplay: null,
  };
}

describe('operations charts', () => {
  it('samples the trial balance and each projection lag into lines over time', async () => {
    let calls = 0;
    fakeApi({
      '/api/admin/trial-balance': () => ({
        body: {
          success: true,
          message: 'ok',
          data: {
            byKind: [
              { kind: 'funding', accounts: 3, balance: -5000, balancePaise: '-500000' },
              { kind: 'wallet', accounts: 2, balance: 5000, balancePaise: '500000' },
            ],
            total: 0,
            totalPaise: '0',
            balanced: true,
            fundingSources: [],
            lastVerify: null,
          },
        },
      }),
      '/api/admin/projections': () => {
        calls += 1;
        return {
          body: {
            success: true,
            message: 'ok',
            data: {
              projections: [projection('history', calls * 10), projection('statements', 3)],
              heldBackEvents: 0,
              heldBackSeconds: 0,
              holder: null,
            },
          },
        };
      },
    });
    const { container } = renderWithApp(<OperationsChartsCard intervals={{ trialBalanceMs: 60, lagMs: 60 }} />);
    await waitFor(() => expect(screen.getByText(/Projection lag \(events\) \([3-9]\d* samples/)).toBeTruthy(), {
      timeout: 15_000,
    });
    const lagLines = container.querySelectorAll('[data-testid="projection-lag-chart"] .recharts-line-curve');
    expect(lagLines.length).toBe(2);
    for (const line of lagLines) expect((line.getAttribute('d') ?? '').split('L').length).toBeGreaterThanOrEqual(3);
    expect(container.querySelectorAll('[data-testid="trial-balance-chart"] .recharts-line-curve').length).toBe(3);
    expect(screen.getByText('statements')).toBeTruthy();
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
