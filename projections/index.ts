/**
 * The read side's public entry (CQRS): read tables' row types, the queries the API uses,
 * read-your-writes waiting, the projector, the worker loop that runs it, and replay.
 */
export type * from './tables.ts';
export { readViews } from './tables.ts';
export { PROJECTION_NAMES, isProjectionName, type ProjectionName, type Projection } from './engine/definition.ts';
export { AWAITED_PROJECTIONS, DEFERRED_PROJECTIONS, PROJECTIONS, projectionNamed } from './registry.ts';
export { PROJECTION_SCHEMAS, PROJECTION_SQL_DEFINITIONS } from './sql-definitions.ts';
export {
  parseCheckpoint,
  formatCheckpoint,
  compareCheckpoints,
  hasReached,
  isCheckpointToken,
  type Checkpoint,
} from './engine/checkpoint.ts';
export {
  CHECKPOINT_CHANNEL,
  DEFAULT_BATCH_SIZE,
  drainAll,
  drainProjection,
  drainRounds,
  hasUnprojectedEvents,
  runProjectionBatch,
  runProjectionRound,
  type BatchOutcome,
  type RoundOutcome,
  type DrainReport,
  type ProjectorOptions,
} from './engine/projector.ts';
export { waitForCheckpoint, readCheckpoints, type WaitTarget } from './engine/wait.ts';
export { createCheckpointWaiter, type CheckpointWaiter } from './engine/waiter.ts';
export {
  createReadRouter,
  type CatchUpOptions,
  type ReadRouter,
  type ReadRouterOptions,
  type ReplicaReadObserver,
  type ReplicaReadOutcome,
} from './engine/replica-reads.ts';
export {
  replayProjection,
  replayProjections,
  replayBalances,
  countEvents,
  type ReplayOptions,
  type ReplayProgress,
  type ReplayReport,
} from './engine/replay.ts';
export { latestReplayRun, replayQueues, requestReplay, type ReplayRun } from './engine/replay-jobs.ts';
export {
  readBalances,
  readDisplayName,
  readStatement,
  readStatementWithReferences,
  type StatementLineWithReference,
  readWalletBalance,
  type StatementFilters,
} from './accounts/queries.ts';
export { readHistoryEntry, REVERSAL_ID_SUFFIX, type HistoryEntry } from './history/entry.ts';
export {
  HISTORY_PAGE_SIZE,
  readHistoryPage,
  readRecentPayees,
  type HistoryPage,
  type HistoryQuery,
  type RecentPayee,
} from './history/queries.ts';
export {
  readMoneyRequestPage,
  readMoneyRequests,
  type MoneyRequestLists,
  type MoneyRequestPageQuery,
} from './money-requests/queries.ts';
export {
  dailyClosingBalances,
  daysBetween,
  monthlyTotals,
  periodSummary,
  readStatementDays,
  type MonthTotals,
  type StatementDay,
  type StatementDays,
  type StatementPeriod,
} from './statement-days/queries.ts';
export { readInstanceFigures, type InstanceFigures } from './instance-figures.ts';
export { readProjectionCheckpoints } from './engine/checkpoint-rows.ts';
export { PROJECTION_CATCH_UP_QUEUE, projectionQueues } from './engine/queues.ts';
export {
  LEDGER_APPENDED_CHANNEL,
  REPLY_WAITS,
  createWakeUpSender,
  listenForWakeUps,
  type WakeUpSender,
} from './engine/wake-up.ts';
export {
  scheduleCatchUp,
  startProjectionWorkers,
  type ProjectionWorkerOptions,
  type StopWorkers,
} from './engine/worker-loop.ts';
