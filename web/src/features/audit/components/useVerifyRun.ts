/**
 * "Run verify": recomputes the projections from the ledger and compares; the toast says
 * whether they matched.
 */
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
        message: reply.message || 'Verify finished',
      });
    } catch {
      notify({ tone: 'error', message: 'Verify failed. Please check your connection and try again.' });
    }
  }
  return { run, pending: verify.isPending };
}
