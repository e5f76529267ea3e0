/**
 * The read side's public entry (CQRS): read tables' row types, the queries the API uses,
 * read-your-writes waiting, the projector, the worker loop that runs it, and replay.
 */
export type * from './tables.ts';
export { PROJECTION_NAMES, isProjectionName, type ProjectionName, type Projection } from './definition.ts';
export { PROJECTIONS, projectionNamed } from './registry.ts';
export {
  parseCheckpoint,
  formatCheckpoint,
  compareCheckpoints,
  hasReached,
  isCheckpointToken,
  type Checkpoint,
} from './checkpoint.ts';
export {
  CHECKPOINT_CHANNEL,
  DEFAULT_BATCH_SIZE,
  drainAll,
  drainProjection,
  hasUnprojectedEvents,
  runProjectionBatch,
  type BatchOutcome,
  type DrainReport,
  type ProjectorOptions,
} from './projector.ts';
export { waitForCheckpoint, readCheckpoints } from './wait.ts';
export { createCheckpointWaiter, type CheckpointWaiter } from './waiter.ts';
export {
  replayProjection,
  replayProjections,
  countEvents,
  type ReplayOptions,
  type ReplayProgress,
  type ReplayReport,
} from './replay.ts';
export { latestReplayRun, requestReplay, type ReplayRun } from './replay-jobs.ts';
export {
  HISTORY_PAGE_SIZE,
  readBalances,
  readDisplayName,
  readHistoryPage,
  readMoneyRequests,
  readProjectionCheckpoints,
  readStatement,
  readWalletBalance,
  type HistoryPage,
  type HistoryQuery,
  type MoneyRequestLists,
  type StatementFilters,
} from './queries.ts';
export { PROJECTION_CATCH_UP_QUEUE, projectionQueues } from './queues.ts';
export { LEDGER_APPENDED_CHANNEL, createWakeUpSender, listenForWakeUps, type WakeUpSender } from './wake-up.ts';
export { startProjectionWorkers, type ProjectionWorkerOptions, type StopWorkers } from './worker-loop.ts';
