/**
 * The Node (V8) flags each entry point runs with, stated once. Every process spawner
 * (test/processes.ts, and through it the reliability suite, the bench and the browser tests)
 * reads them here; package.json, the Dockerfile and docker-compose.yml cannot import, so
 * runtime/node-flags.test.ts checks that what they run agrees with these lists.
 * The measurements behind both flags are in bench/RESULTS.md (memory).
 */

/**
 * Every process: the young generation's semi-space capped at 16 MiB. Node sizes it from the
 * machine's memory, and on a large machine it grew under load and raised the API's peak
 * resident memory without any gain in throughput. NODE_OPTIONS accepts this flag, so the
 * image sets it there once for every command.
 */
export const NODE_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=16']);

/**
 * The API's on top: the old generation grows to 1.5x what survived the last full collection
 * before the next one. V8's own factor (up to 4x when it judges collection cheap) let the API's
 * old space fill with garbage under load; 1.5x lowered its peak with throughput unchanged.
 * Not the worker's: there it slowed the projections that command replies wait for. NODE_OPTIONS
 * refuses this flag, so the API's commands carry it.
 */
export const API_NODE_FLAGS: readonly string[] = Object.freeze([...NODE_FLAGS, '--heap-growing-percent=50']);

/** The flags of each long-running entry point, as `node <flags> <entry>` runs it (one-shot commands keep V8's). */
export const ENTRY_NODE_FLAGS: Readonly<Record<'bin/server.ts' | 'bin/worker.ts', readonly string[]>> = Object.freeze({
  'bin/server.ts': API_NODE_FLAGS,
  'bin/worker.ts': NODE_FLAGS,
});
