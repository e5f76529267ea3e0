/**
 * Structured logs for every process: one pino logger per process, JSON lines on stdout (or a
 * given stream), each line naming its `service` (api, worker, cli, ...) so lines from several
 * processes can be merged and filtered. Secrets are redacted by path wherever they could
 * appear (authorization headers, cookies, passwords, PINs, tokens).
 *
 * Request ids are UUIDs (`newRequestId`): unique across processes and restarts, so an id
 * stored in event metadata or a job payload names one HTTP request forever.
 */
import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';

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
}

export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    base: { service, pid: process.pid },
    redact: { paths: [...LOG_REDACT_PATHS] },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

export function newRequestId(): string {
  return randomUUID();
}
