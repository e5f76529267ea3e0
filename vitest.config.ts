/**
 * The server-side suite: every file gets a database of its own (test/database.ts), but all of
 * them share one Postgres cluster, and the projectors' xmin gate reads that cluster's snapshot.
 * A transaction left open in any database holds every other file's events back. So:
 *
 * - files that hold a write transaction open on purpose, or that assert what the gate lets
 *   through at one instant, are listed in HORIZON_FILES and run in a group of their own, one
 *   at a time, after the rest: nothing overlaps them and they overlap nothing;
 * - every other file waits for the state it expects (`drainUntil`, `expect.poll`, the
 *   read-your-writes wait) with a bound, never for one batch or one drain to have done it.
 *
 * `TEST_XMIN_HOLD_MS=1000 npx vitest run --project server` checks the second half: the global
 * setup then holds the horizon back 1 s out of every 2 (test/xmin-holder.ts), as a neighbour
 * might, and every file must still pass.
 */
import { defineConfig } from 'vitest/config';

const SERVER_FILES =
  '{ledger,projections,identity,user-statements,audit,operations,admin-actions,api,cli,platform,providers,payments,notifications,contracts,runtime,test}/**/*.test.ts';

/** Each holds the cluster's xmin horizon back on purpose, or measures the gate itself. */
export const HORIZON_FILES = [
  // `status` must name a transaction holding the xmin back: the test keeps one open.
  'cli/cli.test.ts',
  // Transactions left open in a chosen order, and what the gate lets through meanwhile.
  'projections/engine/ordering.test.ts',
  // A doomed worker holds every projection's batch open (applied, not committed) for seconds.
  'projections/engine/workers.test.ts',
  // A transaction holds an idempotency key the batch waits on.
  'ledger/group-commit.test.ts',
  // How soon an idle projector applies a lone command: a neighbour's open transaction delays it.
  'projections/engine/busy-spacing.test.ts',
];

const shared = {
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: { ...shared, name: 'server', include: [SERVER_FILES], exclude: HORIZON_FILES },
      },
      {
        test: {
          ...shared,
          name: 'horizon',
          include: HORIZON_FILES,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
