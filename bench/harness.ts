/**
 * Benchmark plumbing: a fresh embedded Postgres per run, closed-loop clients for a fixed
 * time, medians over repeats. Every figure is reported next to a baseline measured in the
 * same run on the same database, because the machines are shared and noisy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedServer } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import { ensureDatabase } from '../platform/database-server.ts';
import { withLogin } from '../platform/runtime-role.ts';

export interface BenchDatabase {
  /** The owner (the embedded superuser): seeds, baselines' DDL, VACUUM. Over the Unix socket. */
  url: string;
  /** The runtime login, a member of wallet_runtime: what the API and worker processes connect as, as in production. */
  runtimeUrl: string;
  server: EmbeddedServer;
  /** Another migrated database in the same cluster: each benchmark starts from empty tables. */
  fresh(name: string): Promise<BenchDatabase>;
  stop(): Promise<void>;
}

/** The bench cluster is throwaway: a fixed login is enough. */
const BENCH_RUNTIME_LOGIN = { user: 'wallet_bench_app', password: 'wallet-bench-app-0123456789' };

/** Durable settings (fsync on): the commit ceiling is part of what is measured. */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  const root = mkdtempSync(join(tmpdir(), 'wallet-bench-'));
  const server = await startEmbeddedPostgres({ dataDir: join(root, 'data'), persistent: false });
  const stop = async (): Promise<void> => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  };
  const fresh = async (name: string): Promise<BenchDatabase> => {
    await ensureDatabase(server.url('postgres'), name);
    // Over the Unix socket, as the app reaches the embedded server by default (BENCH_TCP=1: loopback TCP, to compare).
    const url = process.env['BENCH_TCP'] === '1' ? server.url(name) : server.socketUrl(name);
    const runtimeUrl = withLogin(url, BENCH_RUNTIME_LOGIN);
    await migrateDatabase(url, installation, { runtimeUrl, resetRuntimePassword: true });
    return { url, runtimeUrl, server, fresh, stop };
  };
  return fresh('bench');
}

export interface ThroughputResult {
  operationsPerSecond: number;
  operations: number;
  errors: number;
}

/** `clients` closed loops calling `operation` for `durationMs`; returns completed ops/s. */
export async function measureThroughput(
  clients: number,
  durationMs: number,
  operation: (client: number, iteration: number) => Promise<void>,
): Promise<ThroughputResult> {
  let operations = 0;
  let errors = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let iteration = 0; performance.now() < deadline; iteration++) {
        try {
          await operation(client, iteration);
          operations++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  return { operationsPerSecond: operations / elapsedSeconds, operations, errors };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** A small deterministic generator, so two runs draw the same accounts. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}
