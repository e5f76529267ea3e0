/**
 * /admin/disputes: customers' disputes of payments, filtered by status, newest first. Each
 * shows both parties (with links to each account's whole history on the audit screen), the
 * amount, the customer's reason and where it stands; an open one is resolved here with a reason
 * - by reversing the payment (which above the approval threshold waits for a second admin, on
 * the Operations page's approvals) or by rejecting the dispute.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { MAX_REASON_LENGTH } from '../../../../../contracts/admin.ts';
import { DISPUTE_STATUSES, resolveDisputeSchema } from '../../../../../contracts/disputes.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Badge, Card, EmptyState, Notice, PageHeader, type BadgeTone } from '../../../components/ui/misc.tsx';
import { SelectField } from '../../../components/ui/SelectField.tsx';
import { TextAreaField } from '../../../components/ui/TextAreaField.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { useDecideDispute, useDisputes, type DisputeFilter, type DisputeRecord } from '../api/disputes.ts';
import styles from './DisputesPage.module.css';

const STATUS_TONES: Record<DisputeRecord['status'], BadgeTone> = {
  open: 'warning',
  awaiting_approval: 'info',
  reversed: 'success',
  rejected: 'danger',
};

function useDisputeDecision(dispute: DisputeRecord) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const decide = useDecideDispute();
  // A toast, not a line in the card: a decided dispute leaves the "open" list it was in.
  const notify = useToast();
  async function run(decision: 'reverse' | 'reject'): Promise<void> {
    const parsed = resolveDisputeSchema.safeParse({ reason });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    try {
      const outcome = await decide.mutateAsync({ id: dispute.id, decision, reason: parsed.data.reason });
      notify({ tone: outcome.awaitingApproval ? 'info' : 'success', message: outcome.message, durationMs: 6000 });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : undefined);
    }
  }
  return { reason, setReason, error, run, pending: decide.isPending };
}

function DecisionForm({ dispute }: { dispute: DisputeRecord }): ReactElement {
  const { t } = useTranslation();
  const form = useDisputeDecision(dispute);
  return (
    <div>
      <TextAreaField
        label={t('disputes.decisionReason')}
        value={form.reason}
        maxLength={MAX_REASON_LENGTH}
        onValueChange={form.setReason}
        error={form.error}
        rows={2}
      />
      <div className="row-actions">
        <Button variant="danger" disabled={form.pending} onClick={() => void form.run('reverse')}>
          {t('disputes.reverse')}
        </Button>
        <Button variant="secondary" disabled={form.pending} onClick={() => void form.run('reject')}>
          {t('disputes.reject')}
        </Button>
      </div>
    </div>
  );
}

function DisputeCard({ dispute }: { dispute: DisputeRecord }): ReactElement {
  const { t } = useTranslation();
  const history = (accountId: string) => `/admin/audit?account=${encodeURIComponent(accountId)}`;
  return (
    <li className={`card dispute-card ${styles.card}`} data-dispute={dispute.id}>
      <p className="row-between">
        <strong>
          {t('disputes.summary', {
            amount: formatRupees(dispute.amount),
            payer: dispute.payer.name,
            payee: dispute.payee.name,
          })}
        </strong>
        <Badge tone={STATUS_TONES[dispute.status]}>{t(`disputes.status.${dispute.status}`)}</Badge>
      </p>
      <p className="muted small">
        {formatDateTime(dispute.raisedAt)} · <span className="mono">{dispute.transactionId}</span>
      </p>
      <p>{t('disputes.customerReason', { reason: dispute.reason })}</p>
      {dispute.decisionReason ? (
        <p>{t('disputes.decidedBy', { name: dispute.decidedByName ?? '-', reason: dispute.decisionReason })}</p>
      ) : null}
      <p className="row-actions">
        <Link to={history(dispute.payer.id)}>{t('disputes.payerHistory', { name: dispute.payer.name })}</Link>
        <Link to={history(dispute.payee.id)}>{t('disputes.payeeHistory', { name: dispute.payee.name })}</Link>
      </p>
      {dispute.status === 'open' ? <DecisionForm dispute={dispute} /> : null}
      {dispute.status === 'awaiting_approval' ? <Notice tone="info">{t('disputes.awaitingHint')}</Notice> : null}
    </li>
  );
}

export function DisputesPage(): ReactElement {
  const { t } = useTranslation();
  const [status, setStatus] = useState<DisputeFilter>('open');
  const disputes = useDisputes(status);
  const options = (['all', ...DISPUTE_STATUSES] as const).map((value) => ({
    value,
    label: value === 'all' ? t('disputes.all') : t(`disputes.status.${value}`),
  }));
  return (
    <div className="page">
      <PageHeader title={t('disputes.queueTitle')} subtitle={t('disputes.queueSubtitle')} />
      <Card>
        <SelectField
          label={t('disputes.filter')}
          value={status}
          options={options}
          onValueChange={(value) => setStatus(options.find((option) => option.value === value)?.value ?? 'all')}
        />
      </Card>
      {disputes.isPending ? <p className="muted">{t('disputes.loading')}</p> : null}
      {disputes.isError ? <Notice tone="danger">{disputes.error.message}</Notice> : null}
      {disputes.data?.length === 0 ? <EmptyState title={t('disputes.none')} /> : null}
      {disputes.data?.length ? (
        <ul className={styles.list} aria-label={t('disputes.queueTitle')}>
          {disputes.data.map((dispute) => (
            <DisputeCard key={dispute.id} dispute={dispute} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
