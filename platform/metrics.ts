/**
 * Prometheus metrics, the parts every process shares: a registry per process (never
 * prom-client's global one, so tests that build several apps in one process keep their series
 * apart) with the default process metrics (RSS, heap, event-loop lag, GC), a bounded scrape
 * (a gauge read from the database must not hold a scraper forever), and who may scrape.
 *
 * Who may scrape: anyone presenting `Authorization: Bearer <METRICS_TOKEN>`, or a direct
 * caller on the loopback interface (a sidecar or node exporter on the same host). Behind a
 * reverse proxy on the same host every caller arrives from loopback, so loopback counts only
 * when no proxy is configured (TRUST_PROXY_HOPS = 0) and the request carries no forwarding
 * header (a proxy that adds one says the caller is elsewhere). Others get 404, so the
 * endpoint does not advertise itself.
 */
import { timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

export type MetricsRegistry = Registry;

/** A scrape answers within this even when a database gauge hangs (Prometheus's default timeout is 10 s). */
export const SCRAPE_TIMEOUT_MS = 5_000;

export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerEventLoopActiveTime(registry);
  return registry;
}

/**
 * `wallet_event_loop_active_seconds_total`: the time the event loop spent running callbacks
 * rather than waiting for I/O (Node's event-loop utilization, counted since the registry was
 * made). Its rate is how busy the process's one thread is, 0 to 1: the default metrics' lag
 * shows single stalls, while a thread kept busy by many short callbacks - and by the system
 * calls inside them, such as the writes that hand each query to Postgres - queues every
 * request behind the others, which is where an API's latency tail forms (bench/RESULTS.md,
 * issue 40). A counter, so any number of scrapers read it without resetting one another.
 */
function registerEventLoopActiveTime(registry: Registry): void {
  let counted = performance.eventLoopUtilization().active;
  new Counter({
    name: 'wallet_event_loop_active_seconds_total',
    help: 'Time the event loop spent running callbacks (not waiting for I/O); its rate is the thread’s utilization',
    registers: [registry],
    collect() {
      const active = performance.eventLoopUtilization().active;
      this.inc(Math.max(0, active - counted) / 1000);
      counted = active;
    },
  });
}

/** The exposition text and its content type, or a rejection past SCRAPE_TIMEOUT_MS. */
export async function scrape(registry: MetricsRegistry): Promise<{ contentType: string; body: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('metrics scrape timed out')), SCRAPE_TIMEOUT_MS);
  });
  try {
    const body = await Promise.race([registry.metrics(), timeout]);
    return { contentType: registry.contentType, body };
  } finally {
    clearTimeout(timer);
  }
}

/** What the access rule looks at, from Fastify or node:http alike. */
export interface ScrapeRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The connection's peer address (not a forwarded one). */
  ip: string | undefined;
}

export interface ScrapeAccess {
  /** METRICS_TOKEN: lets a scraper off the host in. */
  token: string | undefined;
  /** TRUST_PROXY_HOPS > 0: loopback callers are the proxy, so they need the token too. */
  behindProxy: boolean;
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

export function mayScrape(request: ScrapeRequest, access: ScrapeAccess): boolean {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && bearerMatches(authorization, access.token)) return true;
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  return !access.behindProxy && !forwarded && isLoopback(request.ip);
}

function isLoopback(ip: string | undefined): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

function bearerMatches(header: string, token: string | undefined): boolean {
  if (!token) return false;
  const presented = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
