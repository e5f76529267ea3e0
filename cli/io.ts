/**
 * Where CLI commands write: stdout/stderr in `bin/ledger.ts`, captured lines in tests.
 * `out` is the command's output (a human printout, or with --json one JSON document) and
 * nothing else; `err` is for people (usage errors, help on a mistake); `log` is the
 * diagnostics (warnings, connection notes, failures): pino JSON lines on stderr.
 */
import { createLogger, type Logger } from '../platform/logger.ts';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  log: Logger;
  /** Draw progress bars (an interactive terminal); tests turn them off. */
  progress: boolean;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    log: createLogger('cli', { destination: process.stderr }),
    progress: Boolean(process.stderr.isTTY),
  };
}

export function capturedIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = createLogger('cli', { destination: { write: (line: string) => void stderr.push(line.trimEnd()) } });
  return { stdout, stderr, out: (text) => stdout.push(text), err: (text) => stderr.push(text), log, progress: false };
}
