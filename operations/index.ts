/**
 * The public entry of operations/: what operators watch of a running system and do to keep it
 * serving - the readiness checks behind both processes' ready probes, the Prometheus gauges
 * read at scrape time, each projection's status and lag (`npm run ledger -- status`, the
 * admin's projections page) and the replays requested from it. No HTTP here: typed inputs,
 * typed results.
 *
 * Checking the books is audit/'s (verify, trial balance, explorer, the trail of admins'
 * actions); operations/ reads its last verify run for the gauges and records replays in its
 * trail, so operations/ may import audit/ and not the other way.
 */

// Projections as operators see them.
export {
  projectionStatus,
  HELD_BACK_WARNING_SECONDS,
  type ProjectionStatus,
  type StatusReport,
  type XminHolder,
} from './projection-status.ts';
export { latestReplay, readProjectionsOverview, requestProjectionReplay, type ReplayRequest } from './projections.ts';

// Health and metrics: readiness checks and the scrape-time gauges both processes serve.
export { checkReadiness, type ReadinessOptions, type ReadinessReport, type ReadinessCheck } from './readiness.ts';
export { registerJobQueueGauges, registerProjectionGauges, registerVerifyGauges } from './metrics.ts';
