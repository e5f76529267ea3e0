/**
 * The Operations page's charts over time: the trial balance (per account kind and in total)
 * and each projection's lag, sampled in the browser from the existing admin endpoints
 * (GET /api/admin/trial-balance, GET /api/admin/projections) while the page is open.
 *
 * Why in the browser and not a history kept on the server: the charts answer "what is it
 * doing now?" for the operator looking at the page; a server-side history would need a table,
 * a sampling job and its retention for a view nobody else reads, and the long history is
 * Prometheus's (projection lag and the ledger are exported on /metrics).
 *
 * No timers of its own: the projections' status is pushed on the live updates stream every few
 * seconds (app/live-cache.ts writes it into its query), one lag point each. The trial balance
 * sums every posting, so it is fetched again only when the ledger has moved (the pushed
 * checkpoints changed) and at most every 30 s: an idle page costs no calls. At most MAX_SAMPLES
 * points are kept per chart.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { projectionsQuery } from './projections.ts';
import { trialBalanceQuery } from './trial-balance.ts';
import type { ProjectionsOverview, TrialBalance } from './types.ts';

export const MAX_SAMPLES = 120;

export interface SampleIntervals {
  /** The least time between two fetches of the trial balance. */
  trialBalanceMs: number;
}

export const DEFAULT_SAMPLE_INTERVALS: SampleIntervals = { trialBalanceMs: 30_000 };

/** One point in time: `time` (ms since the epoch) and one number per series. */
export type Sample = { time: number } & Record<string, number>;

/** The samples with `sample` added (unless it is the same moment as the last), the oldest dropped past `max`. */
export function appendSample(samples: readonly Sample[], sample: Sample, max = MAX_SAMPLES): Sample[] {
  if (samples.at(-1)?.time === sample.time) return [...samples];
  return [...samples, sample].slice(-max);
}

export function trialBalanceSample(balance: TrialBalance, time: number): Sample {
  const sample: Sample = { time, total: balance.total };
  for (const line of balance.byKind) sample[line.kind] = line.balance;
  return sample;
}

export function lagSample(overview: ProjectionsOverview, time: number): Sample {
  const sample: Sample = { time };
  for (const projection of overview.projections) sample[projection.name] = projection.lagEvents;
  return sample;
}

function useSamples<Data>(data: Data | undefined, updatedAt: number, toSample: (data: Data, time: number) => Sample) {
  const [samples, setSamples] = useState<Sample[]>([]);
  useEffect(() => {
    if (data !== undefined) setSamples((current) => appendSample(current, toSample(data, updatedAt)));
    // A new sample only when the query has new data (its update time moves).
  }, [updatedAt]);
  return samples;
}

/** Where the ledger stands as the projections see it: changes only when money moved. */
export function ledgerPosition(overview: ProjectionsOverview): string {
  return overview.projections.map((projection) => projection.checkpoint).join(' ');
}

/** Fetches the trial balance again when the pushed status shows the ledger moved, at most every `minMs`. */
function useTrialBalanceFollowingLedger(overview: ProjectionsOverview | undefined, minMs: number) {
  const trial = useQuery({ ...trialBalanceQuery, staleTime: Infinity });
  const fetchedAt = useRef<string | undefined>(undefined);
  const position = overview ? ledgerPosition(overview) : undefined;
  const { refetch, dataUpdatedAt, isFetching } = trial;
  useEffect(() => {
    if (position === undefined || isFetching) return;
    if (fetchedAt.current === undefined) fetchedAt.current = position;
    if (position === fetchedAt.current || Date.now() - dataUpdatedAt < minMs) return;
    fetchedAt.current = position;
    void refetch();
  }, [position, isFetching, dataUpdatedAt, minMs, refetch]);
  return trial;
}

export function useOperationsSamples(intervals: SampleIntervals = DEFAULT_SAMPLE_INTERVALS): {
  trialBalance: Sample[];
  lag: Sample[];
} {
  const projections = useQuery({ ...projectionsQuery, staleTime: Infinity });
  const trial = useTrialBalanceFollowingLedger(projections.data, intervals.trialBalanceMs);
  return {
    trialBalance: useSamples(trial.data, trial.dataUpdatedAt, trialBalanceSample),
    lag: useSamples(projections.data, projections.dataUpdatedAt, lagSample),
  };
}
