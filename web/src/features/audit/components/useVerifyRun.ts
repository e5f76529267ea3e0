/**
 * "Run verify": recomputes the projections from the ledger and compares; the toast says
 * whether they matched.
 */
import i18next from 'i18next';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { useRunVerify } from '../api/trial-balance.ts';

export function useVerifyRun() {
  const verify = useRunVerify();
  const notify = useToast();
  async function run(): Promise<void> {
    try {
      const reply = await verify.mutateAsync();
      notify({
        tone: reply.success && reply.data?.ok ? 'success' : 'error',
        message: reply.message || i18next.t('audit.verifyFinished'),
      });
    } catch {
      notify({ tone: 'error', message: i18next.t('audit.verifyFailed') });
    }
  }
  return { run, pending: verify.isPending };
}
