/**
 * A process logger whose JSON lines a test can read: the same pino setup as every process
 * (platform/logger.ts), written to an array instead of stdout.
 */
import { createLogger, type LogLevel, type Logger } from '../platform/logger.ts';

export interface CapturedLog {
  log: Logger;
  /** Every line so far, parsed. */
  lines: () => Record<string, unknown>[];
  /** Every line so far, as written. */
  text: () => string;
}

export function capturedLog(service = 'test', level: LogLevel = 'info'): CapturedLog {
  const written: string[] = [];
  const log = createLogger(service, { level, destination: { write: (line: string) => void written.push(line) } });
  return {
    log,
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => written.join(''),
  };
}
