/**
 * Structured logs for every process: one pino logger per process, JSON lines on stdout (or a
 * given stream), each line naming its `service` (api, worker, cli, ...) so lines from several
 * processes can be merged and filtered; a part of a process adds its `component` (jobs,
 * database, mail, projections, ...) with `log.child`. Secrets are redacted by path wherever
 * they could appear (authorization headers, cookies, passwords, PINs, tokens), and a request
 * (`req`) is logged by its method and path, never its query (`serializeRequestForLog`).
 *
 * Request ids are UUIDs (`newRequestId`): unique across processes and restarts, so an id
 * stored in event metadata or a job payload names one HTTP request forever.
 */
import { newId } from './ids.ts';
import { pino, type DestinationStream, type Level, type Logger, type LoggerOptions as PinoOptions } from 'pino';

export type { Logger } from 'pino';

export type LogLevel = Level | 'silent';

/** Paths pino replaces with "[Redacted]" on every line, whatever logged them. */
export const LOG_REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.pin',
  '*.token',
  '*.secret',
];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; stdout by default (stderr for the CLI, whose stdout is its output). */
  destination?: DestinationStream;
  /** Extra serializers by key (`req` has one already: serializeRequestForLog). */
  serializers?: PinoOptions['serializers'];
}

export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  const settings: PinoOptions = {
    level: options.level ?? 'info',
    base: { service, pid: process.pid },
    redact: { paths: [...LOG_REDACT_PATHS] },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { req: serializeRequestForLog, ...options.serializers },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/**
 * A request on a log line: its method and path, never its query. The Google sign-in lands on
 * `/login?token=<JWT>` (a session token), its callback carries the authorization code and
 * state, a reset link its code, and whatever else a client puts after `?` is its own: cut from
 * every URL whatever its spelling (`/%61uth/...` reaches the callback too).
 */
export function serializeRequestForLog(request: {
  method?: string;
  url?: string;
  ip?: string;
  socket?: { remoteAddress?: string | undefined } | null;
}): Record<string, unknown> {
  return {
    method: request.method,
    url: pathOf(request.url ?? ''),
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  };
}

/** A request target without its query (nor a fragment: browsers never send one, a client may). */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * The lines an operator reads to know a process is up, where, and how it stopped (start-up,
 * the first admin, shut-down): written at info whatever LOG_LEVEL filters out (the reliability
 * suite runs at `warn` and waits for them), so LOG_LEVEL tunes diagnostics, not these. Only
 * `silent` silences them too.
 */
export function lifecycleLog(log: Logger): Logger {
  return log.level === 'silent' || log.isLevelEnabled('info') ? log : log.child({}, { level: 'info' });
}

/** Standard error, written synchronously (a line logged just before an exit is not lost). */
export function stderrDestination(): DestinationStream {
  return pino.destination({ dest: 2, sync: true });
}

/**
 * For library helpers called outside a process's composition root (tests, benchmarks, the
 * CLI's connections) that were given no logger: warnings and errors as JSON lines on stderr.
 * Every process passes its own logger down instead.
 */
export const fallbackLogger: Logger = createLogger('wallet', {
  level: 'warn',
  destination: stderrDestination(),
});

export function newRequestId(): string {
  return newId();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID: the one shape of a request id (api/request-id.ts spells a proxy's 32 hex digits as one). */
export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
