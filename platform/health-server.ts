/**
 * The HTTP a process that serves no API has (the worker), on its own port:
 * - `GET /health/live`: 200 while the process answers at all (nothing is checked);
 * - `GET /health/ready`: 200 when every readiness check passes, else 503 naming each check
 *   and whether it passed (the checks themselves are the caller's: operations/readiness.ts);
 * - `GET /health`: the older probe, 200 while the process's `check` passes (its database);
 * - `GET /metrics`: Prometheus text from the process's registry, for a scraper that may
 *   (platform/metrics.ts: the token, or a direct loopback caller), 404 for anyone else.
 * A check that hangs is answered 503 within HEALTH_CHECK_TIMEOUT_MS. Nothing else is served.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mayScrape, scrape, type MetricsRegistry } from './metrics.ts';

/** A probe that hangs is as unhealthy as one that fails: answer before the prober gives up. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

/** One readiness check's outcome: `detail` says what was found (never a secret). */
export interface ReadinessCheck {
  ok: boolean;
  detail: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, ReadinessCheck>;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

export interface HealthServerOptions {
  port: number;
  host: string;
  /** GET /health: resolves when healthy; rejects (or outlasts HEALTH_CHECK_TIMEOUT_MS) when not. */
  check: () => Promise<void>;
  /** GET /health/ready; without it the route answers 404. */
  ready?: () => Promise<ReadinessReport>;
  /** GET /metrics; without it the route answers 404. The token is METRICS_TOKEN. */
  metrics?: { registry: MetricsRegistry; token: string | undefined };
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = createServer((request, response) => {
    void route(request, response, options);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

async function route(request: IncomingMessage, response: ServerResponse, options: HealthServerOptions): Promise<void> {
  const path = (request.url ?? '').split('?')[0];
  const known = ['/health', '/health/live', '/health/ready', '/metrics'];
  if (!known.includes(path ?? '')) return reply(response, 404, { status: 'not_found' });
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return reply(response, 405, { status: 'method_not_allowed' });
  switch (path) {
    case '/health/live':
      return reply(response, 200, { status: 'live' });
    case '/health/ready':
      return answerReady(response, options.ready);
    case '/metrics':
      return answerMetrics(request, response, options.metrics);
    default:
      return withinTimeout(Promise.resolve().then(options.check)).then(
        () => reply(response, 200, { status: 'ok' }),
        () => reply(response, 503, { status: 'unavailable' }),
      );
  }
}

async function answerReady(response: ServerResponse, ready: HealthServerOptions['ready']): Promise<void> {
  if (!ready) return reply(response, 404, { status: 'not_found' });
  try {
    const report = await withinTimeout(Promise.resolve().then(ready));
    reply(response, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'not_ready', checks: report.checks });
  } catch {
    reply(response, 503, { status: 'unavailable' });
  }
}

async function answerMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  metrics: HealthServerOptions['metrics'],
): Promise<void> {
  const admitted =
    metrics &&
    mayScrape(
      { headers: request.headers, ip: request.socket.remoteAddress },
      { token: metrics.token, behindProxy: false },
    );
  if (!metrics || !admitted) return reply(response, 404, { status: 'not_found' });
  try {
    const { contentType, body } = await scrape(metrics.registry);
    response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
    response.end(body);
  } catch {
    reply(response, 503, { status: 'unavailable' });
  }
}

function reply(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

function withinTimeout<T>(check: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('health check timed out')), HEALTH_CHECK_TIMEOUT_MS);
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
