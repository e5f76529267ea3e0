/**
 * GET /metrics in the Prometheus text format (0.0.4), written by hand (no client library):
 * HTTP requests and latency by route, ledger appends by command, command failures by reason,
 * and projection lag (read at scrape time).
 *
 * Who may scrape: anyone presenting `Authorization: Bearer <METRICS_TOKEN>`, or a direct
 * caller on the loopback interface (a sidecar or node exporter on the same host). Behind a
 * reverse proxy on the same host every caller arrives from loopback, so loopback counts only
 * when no proxy is configured (TRUST_PROXY_HOPS = 0) and the request carries no forwarding
 * header (a proxy that adds one says the caller is elsewhere). Others get 404, so the
 * endpoint does not advertise itself.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { isLedgerRejection, type AppendResult, type Ledger, type LedgerCommands } from '../ledger/index.ts';
import { projectionStatus } from '../audit/index.ts';
import { fileReply, routeDocs } from './docs.ts';

/** Latency buckets in seconds: a transfer is a few ms; a slow read is hundreds. */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

type Labels = Record<string, string>;

class Counter {
  readonly values = new Map<string, { labels: Labels; value: number }>();
  inc(labels: Labels, by = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }
}

class Histogram {
  readonly series = new Map<string, { labels: Labels; buckets: number[]; sum: number; count: number }>();
  observe(labels: Labels, value: number): void {
    const key = labelText(labels);
    const entry = this.series.get(key) ?? { labels, buckets: LATENCY_BUCKETS_SECONDS.map(() => 0), sum: 0, count: 0 };
    LATENCY_BUCKETS_SECONDS.forEach((bound, index) => {
      if (value <= bound) entry.buckets[index] = (entry.buckets[index] ?? 0) + 1;
    });
    entry.sum += value;
    entry.count += 1;
    this.series.set(key, entry);
  }
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

export interface Metrics {
  requests: Counter;
  latency: Histogram;
  appends: Counter;
  failures: Counter;
}

export function createMetrics(): Metrics {
  return { requests: new Counter(), latency: new Histogram(), appends: new Counter(), failures: new Counter() };
}

/** The ledger with every command counted: appends (not idempotent replays) and rejections by code. */
export function instrumentLedger(ledger: Ledger, metrics: Metrics): Ledger {
  const wrap = (commands: LedgerCommands): LedgerCommands => {
    const wrapped: Record<string, unknown> = {};
    for (const [name, command] of Object.entries(commands) as [
      string,
      (input: unknown, ctx: unknown) => Promise<AppendResult>,
    ][]) {
      wrapped[name] = async (input: unknown, ctx: unknown) => {
        try {
          const result = await command(input, ctx);
          if (!result.replayed) metrics.appends.inc({ command: name });
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

function isLoopback(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  const presented = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Headers a proxy adds: their presence means the connection is not the caller's own. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
] as const;

function isForwarded(request: FastifyRequest): boolean {
  return FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
}

export function mayScrape(
  request: FastifyRequest,
  options: { token: string | undefined; behindProxy: boolean },
): boolean {
  if (bearerMatches(request.headers.authorization, options.token)) return true;
  return !options.behindProxy && !isForwarded(request) && isLoopback(request.ip);
}

export interface MetricsOptions {
  db: Kysely<unknown>;
  metrics: Metrics;
  /** METRICS_TOKEN: lets a scraper off the host in. */
  token?: string | undefined;
  /** TRUST_PROXY_HOPS > 0: loopback callers are the proxy, so they need the token too. */
  behindProxy?: boolean;
}

export function installMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const { metrics } = options;
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    // The route template, not the URL: ids in paths would make a series per id.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route };
    metrics.requests.inc({ ...labels, status: String(reply.statusCode) });
    metrics.latency.observe(labels, reply.elapsedTime / 1000);
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
      if (!mayScrape(request, { token: options.token, behindProxy: options.behindProxy ?? false })) {
        return reply.code(404).send({ success: false, message: 'Route GET /metrics not found', code: 'not_found' });
      }
      reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
      reply.header('cache-control', 'no-store');
      return renderMetrics(metrics, await projectionLag(options.db));
    },
  );
}

interface Lag {
  projection: string;
  events: number;
  seconds: number;
  applied: number;
  failing: boolean;
}

async function projectionLag(db: Kysely<unknown>): Promise<Lag[]> {
  const status = await projectionStatus(db);
  return status.projections.map((p) => ({
    projection: p.projection,
    events: Number(p.eventsBehind),
    seconds: p.secondsBehind,
    applied: Number(p.eventsApplied),
    failing: p.lastError !== null,
  }));
}

export function renderMetrics(metrics: Metrics, lag: readonly Lag[]): string {
  const out: string[] = [];
  const family = (name: string, type: string, help: string) =>
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

  family('wallet_http_requests_total', 'counter', 'HTTP requests by method, route template and status.');
  for (const { labels, value } of metrics.requests.values.values())
    out.push(`wallet_http_requests_total${labelText(labels)} ${value}`);

  family('wallet_http_request_duration_seconds', 'histogram', 'HTTP request latency by method and route template.');
  for (const { labels, buckets, sum, count } of metrics.latency.series.values()) {
    LATENCY_BUCKETS_SECONDS.forEach((bound, index) =>
      out.push(
        `wallet_http_request_duration_seconds_bucket${labelText({ ...labels, le: String(bound) })} ${buckets[index] ?? 0}`,
      ),
    );
    out.push(`wallet_http_request_duration_seconds_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`);
    out.push(`wallet_http_request_duration_seconds_sum${labelText(labels)} ${sum}`);
    out.push(`wallet_http_request_duration_seconds_count${labelText(labels)} ${count}`);
  }

  family('wallet_ledger_appends_total', 'counter', 'Ledger commands that appended events, by command (this process).');
  for (const { labels, value } of metrics.appends.values.values())
    out.push(`wallet_ledger_appends_total${labelText(labels)} ${value}`);

  family(
    'wallet_command_failures_total',
    'counter',
    'Ledger commands refused or failed, by command and reason (this process).',
  );
  for (const { labels, value } of metrics.failures.values.values())
    out.push(`wallet_command_failures_total${labelText(labels)} ${value}`);

  family('wallet_projection_lag_events', 'gauge', 'Committed events a projection has not applied yet.');
  for (const p of lag) out.push(`wallet_projection_lag_events${labelText({ projection: p.projection })} ${p.events}`);
  family('wallet_projection_lag_seconds', 'gauge', 'Age of the oldest event a projection has not applied yet.');
  for (const p of lag) out.push(`wallet_projection_lag_seconds${labelText({ projection: p.projection })} ${p.seconds}`);
  family('wallet_projection_events_applied', 'gauge', 'Events a projection has applied since its last replay.');
  for (const p of lag)
    out.push(`wallet_projection_events_applied${labelText({ projection: p.projection })} ${p.applied}`);
  family('wallet_projection_failing', 'gauge', "1 when the projection's last batch failed (see last error).");
  for (const p of lag)
    out.push(`wallet_projection_failing${labelText({ projection: p.projection })} ${p.failing ? 1 : 0}`);

  return `${out.join('\n')}\n`;
}
