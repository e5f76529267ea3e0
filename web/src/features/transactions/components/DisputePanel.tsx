/**
 * The dispute part of a payment's page: where its dispute stands (open, waiting for a second
 * admin, reversed, rejected with the admin's reason), updated live (a `dispute` or `balance`
 * event refreshes the page's query), and for the payer of a payment with none open, "Raise a
 * dispute" with a reason (contracts/disputes.ts's rule, the server's too).
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REASON_LENGTH } from '../../../../../contracts/admin.ts';
import { raiseDisputeSchema, type DisputeStatus } from '../../../../../contracts/disputes.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Badge, Card, type BadgeTone } from '../../../components/ui/misc.tsx';
import { TextAreaField } from '../../../components/ui/TextAreaField.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import type { TransactionDetail } from '../api/get-transaction.ts';
import { useRaiseDispute } from '../api/raise-dispute.ts';

const STATUS_VIEW: Record<DisputeStatus, { key: `disputes.status.${DisputeStatus}`; tone: BadgeTone }> = {
  open: { key: 'disputes.status.open', tone: 'warning' },
  awaiting_approval: { key: 'disputes.status.awaiting_approval', tone: 'info' },
  reversed: { key: 'disputes.status.reversed', tone: 'success' },
  rejected: { key: 'disputes.status.rejected', tone: 'danger' },
};

function useRaiseDisputeForm(transactionId: string, onDone: () => void) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const raise = useRaiseDispute(transactionId);
  const keys = useSubmissionKey();
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const parsed = raiseDisputeSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    try {
      await raise.mutateAsync({ payload: parsed.data, idempotencyKey: keys.keyFor(parsed.data) });
      onDone();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : undefined);
    } finally {
      keys.complete();
    }
  }
  return { reason, setReason, error, submit, pending: raise.isPending };
}

function RaiseDisputeForm({ transactionId, onDone }: { transactionId: string; onDone: () => void }): ReactElement {
  const { t } = useTranslation();
  const form = useRaiseDisputeForm(transactionId, onDone);
  return (
    <form onSubmit={(event) => void form.submit(event)} noValidate>
      <TextAreaField
        label={t('disputes.reason')}
        value={form.reason}
        maxLength={MAX_REASON_LENGTH}
        onValueChange={form.setReason}
        error={form.error}
        rows={3}
        autoFocus
      />
      <Button type="submit" disabled={form.pending}>
        {form.pending ? t('common.processing') : t('disputes.submit')}
      </Button>
    </form>
  );
}

export function DisputePanel({ detail }: { detail: TransactionDetail }): ReactElement | null {
  const { t } = useTranslation();
  const [writing, setWriting] = useState(false);
  const { dispute } = detail;
  if (!dispute && !detail.canDispute) return null;
  const view = dispute ? STATUS_VIEW[dispute.status] : undefined;
  return (
    <Card title={t('disputes.title')} className="no-print dispute-panel">
      {dispute && view ? (
        <div data-testid="dispute-status" aria-live="polite">
          <p>
            <Badge tone={view.tone}>{t(view.key)}</Badge>{' '}
            <span className="muted small">{t('disputes.raisedAt', { time: formatDateTime(dispute.raisedAt) })}</span>
          </p>
          <p>{t('disputes.yourReason', { reason: dispute.reason })}</p>
          {dispute.decisionReason ? <p>{t('disputes.decision', { reason: dispute.decisionReason })}</p> : null}
        </div>
      ) : null}
      {detail.canDispute && !writing ? (
        <Button variant="secondary" onClick={() => setWriting(true)}>
          {t('disputes.raise')}
        </Button>
      ) : null}
      {detail.canDispute && writing ? (
        <RaiseDisputeForm transactionId={detail._id} onDone={() => setWriting(false)} />
      ) : null}
    </Card>
  );
}
