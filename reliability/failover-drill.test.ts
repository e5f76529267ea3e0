/**
 * The failover drill, short (reliability/drills/failover.ts): a Patroni cluster (etcd, three
 * PostgreSQL 15 nodes, HAProxy), the real API and worker behind HAProxy, 8 clients paying for
 * 35 s. Just before 8 s the primary's walsenders are stalled for a second (a congested link:
 * replication falls behind), then the primary's Postgres gets SIGKILL (postmaster and every
 * child at once); at 16 s a clean switchover. Nothing acknowledged may be lost or doubled, no
 * 5xx but 503 database_unavailable with retry-after, verifyLedger clean, a payment succeeds
 * on the new primary within 30 s of the kill, and payments run on the node promoted by the
 * switchover at least half as fast as on the first primary (paymentsPerSecondAfter against
 * paymentsPerSecondBefore, equal windows: reliability/drills/failover.ts). Before the fix of
 * issue 40 (JIT compilation of the projector's statements in every new session, so on every
 * promoted node; `jit = off` in NODE_PARAMETERS) it failed: 10.1 against 33.9 payments/s; with
 * the fix, 234.5 against 130.4.
 *
 * FAILOVER_DRILL_ASYNC=1 runs the very same test with `synchronous_mode: false`: it then fails,
 * the payments acknowledged during the stall lost in the failover (docs/operations.md, Failover).
 */
import { expect, it } from 'vitest';
import { MIN_AFTER_TO_BEFORE, runFailoverDrill } from './drills/failover.ts';

const synchronous = process.env.FAILOVER_DRILL_ASYNC !== '1';

it(`loses nothing acknowledged when the primary is killed and then switched over (${synchronous ? 'synchronous' : 'ASYNCHRONOUS'} replication)`, async () => {
  const outcome = await runFailoverDrill(
    { clients: 8, seconds: 35, killAt: 8, switchoverAt: 16, synchronous, nodes: 3, killAll: true, stallMs: 1_000 },
    (message) => console.log(`[failover] ${message}`),
  );
  console.log(`[failover] ${JSON.stringify(outcome.line)}`);
  expect(outcome.line).toMatchObject({ drill: 'failover', lost: 0, doubled: 0, errors5xx: 0, verify: 'ok' });
  expect(outcome.line.acknowledged).toBeGreaterThan(0);
  expect(outcome.line.rtoSeconds).toEqual(expect.any(Number));
  expect(outcome.line.rtoSeconds as number).toBeLessThan(30);
  expect(outcome.line.switchoverSeconds).toEqual(expect.any(Number));
  const before = outcome.line.paymentsPerSecondBefore as number;
  const after = outcome.line.paymentsPerSecondAfter as number;
  expect(before).toBeGreaterThan(0);
  expect(after, `payments/s after the switchover (${after}) against before (${before})`).toBeGreaterThanOrEqual(
    MIN_AFTER_TO_BEFORE * before,
  );
  expect(outcome.passed).toBe(true);
}, 300_000);
