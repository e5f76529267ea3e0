/**
 * The restore drill (`npm run drill -- restore`, reliability/drills/restore.ts), shorter:
 * pgBackRest archives the WAL of a real PostgreSQL 15 primary under the real API and worker,
 * full and incremental backups are taken under payments, a named restore point after exactly
 * N acknowledged payments, more payments, the data directory destroyed; restored to the
 * point, exactly those N are there; restored to the latest, all of them; verifyLedger clean.
 */
import { expect, it } from 'vitest';
import { DEFAULT_OPTIONS, runRestoreDrill } from './drills/restore.ts';

it('restores the ledger to a named restore point and to the latest commit', async () => {
  const messages: string[] = [];
  const outcome = await runRestoreDrill(
    { ...DEFAULT_OPTIONS, payments: 25, wallets: 4, clients: 3, archiveTimeoutSeconds: 2, budgetMs: 150_000 },
    (message) => {
      messages.push(message);
      console.log(`[restore-drill] ${message}`);
    },
  );
  const line = outcome.line as {
    atPoint: { expected: number; found: number };
    latest: { expected: number; found: number };
  };
  expect(line.atPoint.expected).toBeGreaterThan(0);
  expect(line.latest.expected).toBeGreaterThan(line.atPoint.expected);
  expect(outcome.line, messages.join('\n')).toEqual({
    drill: 'restore',
    atPoint: { expected: line.atPoint.expected, found: line.atPoint.expected },
    latest: { expected: line.latest.expected, found: line.latest.expected },
    verify: 'ok',
  });
  expect(outcome.passed, messages.join('\n')).toBe(true);
}, 180_000);
