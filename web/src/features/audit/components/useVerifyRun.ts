/**
 * "Run verify": starts a ledger verify in the background and says its result when it
 * arrives - the live stream's `verify` event, written into the trial balance (or any refetch
 * of it). "Verifying..." lasts until a run newer than the one before the click is there, so
 * a long verify neither holds a request open nor is asked after (issue 41: it stayed on
 * "Verifying..." when the reply never came).
 */
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { useStartVerify, useTrialBalance } from '../api/trial-balance.ts';

export function useVerifyRun() {
  const start = useStartVerify();
  const balance = useTrialBalance();
  const notify = useToast();
  /** The latest run's id before the click (0 when none): the result is the first run after it. */
  const [waitingAfter, setWaitingAfter] = useState<bigint | null>(null);
  const last = balance.data?.lastVerify ?? null;
  const result = waitingAfter !== null && last !== null && BigInt(last.id) > waitingAfter ? last : null;
  useEffect(() => {
    if (!result) return;
    setWaitingAfter(null);
    notify({
      tone: result.ok ? 'success' : 'error',
      message: result.ok
        ? i18next.t('audit.verifyNoDifferences')
        : i18next.t('audit.verifyFoundDifferences', { count: result.differences.length }),
    });
  }, [result, notify]);

  async function run(): Promise<void> {
    try {
      const reply = await start.mutateAsync();
      if (!reply.success || !reply.data) {
        notify({ tone: 'error', message: reply.message || i18next.t('audit.verifyFailed') });
        return;
      }
      setWaitingAfter(BigInt(reply.data.previousRunId ?? '0'));
    } catch {
      notify({ tone: 'error', message: i18next.t('audit.verifyFailed') });
    }
  }
  return { run, pending: start.isPending || waitingAfter !== null };
}
