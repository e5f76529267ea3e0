/**
 * A signal's stop is bounded: a clean stop exits 0; a stop that hangs past its deadline or
 * fails exits 1 with a JSON log line saying why (real child processes, real signals).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../test/fixtures/stop-on-signals.ts', import.meta.url));

async function stopWithSigterm(mode: string): Promise<{ code: number | null; stdout: string; elapsedMs: number }> {
  const child = spawn(process.execPath, [FIXTURE, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  let sentAt = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (sentAt === 0 && stdout.includes('ready\n')) {
      sentAt = Date.now();
      child.kill('SIGTERM');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, elapsedMs: Date.now() - sentAt };
}

function cutLine(stdout: string): Record<string, unknown> | undefined {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((entry) => entry.msg === 'stop cut short; exiting 1');
}

describe('stopOnSignals', () => {
  it('exits 0 after a clean stop, with nothing logged as cut', async () => {
    const run = await stopWithSigterm('clean');
    expect(run.code).toBe(0);
    expect(cutLine(run.stdout)).toBeUndefined();
  });

  it('exits 1 at the deadline when the stop hangs, saying so', async () => {
    const run = await stopWithSigterm('hang');
    expect(run.code).toBe(1);
    expect(run.elapsedMs).toBeGreaterThanOrEqual(300);
    expect(run.elapsedMs).toBeLessThan(5_000);
    expect(cutLine(run.stdout)).toMatchObject({
      service: 'fixture',
      signal: 'SIGTERM',
      reason: 'stop took longer than 300 ms',
    });
  });

  it('exits 1 when the stop fails, with the reason', async () => {
    const run = await stopWithSigterm('fail');
    expect(run.code).toBe(1);
    expect(cutLine(run.stdout)).toMatchObject({ service: 'fixture', reason: 'pool would not close' });
  });
});
