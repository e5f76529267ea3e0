/**
 * GET /api/stats: this instance's real figures for the landing page's statistics band -
 * customers (verified accounts, admins not counted: identity's table, the one place that
 * knows who is an admin), payments made, money moved (the read tables,
 * projections/instance-figures.ts). Public and rate limited like every /api route; the
 * figures are read at most once per STATS_CACHE_MS and callers in between (or at the same
 * moment) share that read, so a flood of visitors costs one query every half minute.
 *
 * Payments and money moved are published rounded down (PUBLIC_ROUNDING): on a quiet instance
 * two exact readings 30 s apart told anyone one transfer's amount and time.
 */
import type { FastifyInstance } from 'fastify';
import { rupeesFromPaise } from '../../contracts/money.ts';
import { instanceStatsSchema, type InstanceStats } from '../../contracts/system.ts';
import type { Clock } from '../../identity/index.ts';
import type { InstanceFigures } from '../../projections/index.ts';
import { routeDocs, withData } from '../docs.ts';
import { ok } from '../envelope.ts';

/** How long one reading of the figures is served. */
export const STATS_CACHE_MS = 30_000;

/** The public figures' steps: payments by the hundred, money by the ₹1,000. */
export const PUBLIC_ROUNDING = { payments: 100n, moneyMovedPaise: 1_000n * 100n } as const;

const roundDown = (value: bigint, step: bigint): bigint => (value / step) * step;

export interface StatsRouteOptions {
  /** Reads the payment figures (on a read replica when there is one). */
  readFigures: () => Promise<InstanceFigures>;
  /** Counts the customers (identity/users.ts countCustomers). */
  countCustomers: () => Promise<bigint>;
  clock: Clock;
}

export function registerStatsRoutes(app: FastifyInstance, options: StatsRouteOptions): void {
  const docs = routeDocs({
    summary: "This instance's figures: customers, payments, money moved",
    description: `From the read tables; the same answer for ${STATS_CACHE_MS / 1000} s. Public.`,
    replies: { 200: withData(instanceStatsSchema, 'The figures') },
  });
  const figures = cachedFigures(options);
  app.get('/api/stats', docs, async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${STATS_CACHE_MS / 1000}`);
    return ok(reply, 'Statistics fetched', await figures());
  });
}

function cachedFigures(options: StatsRouteOptions): () => Promise<InstanceStats> {
  let last: { at: number; stats: Promise<InstanceStats> } | undefined;
  return () => {
    const now = options.clock.now().getTime();
    if (last && now >= last.at && now - last.at < STATS_CACHE_MS) return last.stats;
    const entry = { at: now, stats: readStats(options, now) };
    last = entry;
    // A failed read is not kept: the next caller tries again.
    entry.stats.catch(() => {
      if (last === entry) last = undefined;
    });
    return entry.stats;
  };
}

async function readStats(options: StatsRouteOptions, now: number): Promise<InstanceStats> {
  const [figures, customers] = await Promise.all([options.readFigures(), options.countCustomers()]);
  const moneyMovedPaise = roundDown(figures.moneyMovedPaise, PUBLIC_ROUNDING.moneyMovedPaise);
  return {
    accounts: Number(customers),
    payments: Number(roundDown(figures.payments, PUBLIC_ROUNDING.payments)),
    moneyMoved: rupeesFromPaise(moneyMovedPaise),
    moneyMovedPaise: String(moneyMovedPaise),
    asOf: new Date(now).toISOString(),
  };
}
