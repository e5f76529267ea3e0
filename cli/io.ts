/**
 * Where CLI commands write: stdout/stderr in `bin/ledger.ts`, captured lines in tests.
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Draw progress bars (an interactive terminal); tests turn them off. */
  progress: boolean;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    progress: Boolean(process.stderr.isTTY),
  };
}

export function capturedIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (text) => stdout.push(text), err: (text) => stderr.push(text), progress: false };
}
