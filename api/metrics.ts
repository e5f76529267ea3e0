/**
 * The API's Prometheus series (prom-client) and GET /metrics. On the process's registry
 * (platform/metrics.ts: default process metrics, the access rule) this adds: HTTP requests
 * and their latency by route template and status; ledger commands that appended, how long
 * each took, and refusals by reason; read-after-reply waits and their timeouts; the PIN
 * bcrypt pool's queue; reads of the read tables by where they were served (READ_DATABASE_URL's
 * replicas, or the primary when they lag or fail); and the operator gauges read at scrape time (operations/metrics.ts:
 * projection lag, the last verify run). The group-commit batch sizes are observed where the
 * ledger is built (runtime/metrics.ts), through the ledger's own callback.
 *
 * Who may scrape: `Authorization: Bearer <METRICS_TOKEN>`, or a direct loopback caller with no
 * proxy configured and no forwarding header (`mayScrape`); 404 for anyone else.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram } from 'prom-client';
import { registerProjectionGauges, registerVerifyGauges } from '../operations/index.ts';
import { pinPoolQueueSize } from '../identity/index.ts';
import { isLedgerRejection, type AppendResult, type Ledger, type LedgerCommands } from '../ledger/index.ts';
import { mayScrape, scrape, type MetricsRegistry } from '../platform/metrics.ts';
import type { ReadAfterReplyObserver } from './read-after-reply.ts';
import { fileReply, routeDocs } from './docs.ts';

/** Latency buckets in seconds: a transfer is a few ms; a slow read is hundreds. */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ApiMetrics {
  registry: MetricsRegistry;
  /** Feeds the read-after-reply histogram and timeout counter (api/read-after-reply.ts). */
  readAfterReply: ReadAfterReplyObserver;
  requests: Counter<'method' | 'route' | 'status'>;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  appends: Counter<'command'>;
  appendDuration: Histogram<'command'>;
  failures: Counter<'command' | 'reason'>;
  /** projections/engine/replica-reads.ts: where each read went (only with READ_DATABASE_URL). */
  replicaReads: Counter<'outcome'>;
}

export function createApiMetrics(registry: MetricsRegistry, db: Kysely<unknown>): ApiMetrics {
  const registers = [registry];
  const readAfterReplyWait = new Histogram({
    name: 'wallet_read_after_reply_wait_seconds',
    help: "How long a command's reply waited for every projection to apply it (timed-out waits included).",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers,
  });
  const readAfterReplyTimeouts = new Counter({
    name: 'wallet_read_after_reply_timeouts_total',
    help: 'Command replies sent before the projections had applied them (READ_AFTER_REPLY_TIMEOUT_MS passed).',
    registers,
  });
  new Gauge({
    name: 'wallet_pin_pool_queue_depth',
    help: 'PIN bcrypt tasks waiting for a thread of the pool.',
    registers,
    collect() {
      this.set(pinPoolQueueSize());
    },
  });
  registerProjectionGauges(registry, db);
  registerVerifyGauges(registry, db);
  return {
    registry,
    readAfterReply: {
      reached: (waitedMs) => readAfterReplyWait.observe(waitedMs / 1000),
      timedOut: (waitedMs) => {
        readAfterReplyWait.observe(waitedMs / 1000);
        readAfterReplyTimeouts.inc();
      },
    },
    requests: new Counter({
      name: 'wallet_http_requests_total',
      help: 'HTTP requests by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    requestDuration: new Histogram({
      name: 'wallet_http_request_duration_seconds',
      help: 'HTTP request latency by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    }),
    appends: new Counter({
      name: 'wallet_ledger_appends_total',
      help: 'Ledger commands that appended events, by command (this process).',
      labelNames: ['command'],
      registers,
    }),
    appendDuration: new Histogram({
      name: 'wallet_ledger_append_duration_seconds',
      help: 'Time of a ledger command that appended (load, decide, append and commit), by command.',
      labelNames: ['command'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    }),
    failures: new Counter({
      name: 'wallet_command_failures_total',
      help: 'Ledger commands refused or failed, by command and reason (this process).',
      labelNames: ['command', 'reason'],
      registers,
    }),
    replicaReads: new Counter({
      name: 'wallet_read_replica_reads_total',
      help: 'Reads of the read tables with READ_DATABASE_URL set, by outcome: replica, primary_lagging (no replica caught up within READ_REPLICA_MAX_WAIT_MS), primary_unavailable (the replica failed or is skipped after failing).',
      labelNames: ['outcome'],
      registers,
    }),
  };
}

/** The ledger with every command counted and timed: appends (not idempotent replays) and refusals by code. */
export function instrumentLedger(ledger: Ledger, metrics: ApiMetrics): Ledger {
  const wrap = (commands: LedgerCommands): LedgerCommands => {
    const wrapped: Record<string, unknown> = {};
    for (const [name, command] of Object.entries(commands) as [
      string,
      (input: unknown, ctx: unknown) => Promise<AppendResult>,
    ][]) {
      wrapped[name] = async (input: unknown, ctx: unknown) => {
        const started = performance.now();
        try {
          const result = await command(input, ctx);
          if (!result.replayed) {
            metrics.appends.inc({ command: name });
            metrics.appendDuration.observe({ command: name }, (performance.now() - started) / 1000);
          }
          return result;
        } catch (error) {
          metrics.failures.inc({ command: name, reason: isLedgerRejection(error) ? error.code : 'error' });
          throw error;
        }
      };
    }
    return wrapped as LedgerCommands;
  };
  const { within, ...commands } = ledger;
  return { ...wrap(commands), within: (trx) => wrap(within(trx)) };
}

export interface MetricsOptions {
  metrics: ApiMetrics;
  /** METRICS_TOKEN: lets a scraper off the host in. */
  token?: string | undefined;
  /** TRUST_PROXY_HOPS > 0: loopback callers are the proxy, so they need the token too. */
  behindProxy?: boolean;
}

export function installMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const { metrics } = options;
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    // The route template, never the URL: ids in paths would make a series per id.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
  });
  app.get(
    '/metrics',
    routeDocs({
      tags: ['operator'],
      summary: 'Prometheus metrics (loopback or METRICS_TOKEN)',
      security: [{ metricsToken: [] }],
      replies: { 200: fileReply('text/plain', 'The Prometheus text exposition') },
      errors: [404],
      rateLimited: false,
    }),
    async (request, reply) => {
      const access = { token: options.token, behindProxy: options.behindProxy ?? false };
      if (!mayScrape({ headers: request.headers, ip: request.ip }, access)) {
        return reply.code(404).send({ success: false, message: 'Route GET /metrics not found', code: 'not_found' });
      }
      const { contentType, body } = await scrape(metrics.registry);
      reply.header('content-type', contentType);
      reply.header('cache-control', 'no-store');
      return body;
    },
  );
}
