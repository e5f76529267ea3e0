/**
 * A payment's own page (/transactions/:transactionId): both parties, amount, note, time (IST),
 * reference and status, as a receipt that prints on its own (print CSS) or downloads as a PDF;
 * below it, the payment's dispute (DisputePanel). Opened from every history row.
 */
import type { ReactElement, ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, Notice, PageHeader } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { historyTitle } from '../../../lib/history-words.ts';
import { downloadReceipt } from '../api/download-receipt.ts';
import { useTransaction, type TransactionDetail } from '../api/get-transaction.ts';
import { DisputePanel } from './DisputePanel.tsx';
import styles from './TransactionDetailPage.module.css';

const STATUS_WORDS = {
  success: 'transactions.statusSuccess',
  pending: 'transactions.statusPending',
  failed: 'transactions.statusFailed',
} as const;

function Row({ label, children }: { label: string; children: ReactNode }): ReactElement {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The history's words for the entry, from the signed-in user's side. */
function titleOf(detail: TransactionDetail, userId: string): string {
  const other = detail.from.id === userId ? detail.to : detail.from;
  return historyTitle(
    {
      sender: detail.type === 'deposit' ? userId : detail.from.id,
      receiver: detail.type === 'deposit' ? userId : detail.to.id,
      type: detail.type,
      method: detail.method,
      status: detail.status,
      counterpartyName: other.name,
      counterpartyId: other.id,
    },
    userId,
  );
}

function Receipt({ detail, userId }: { detail: TransactionDetail; userId: string }): ReactElement {
  const { t } = useTranslation();
  const tone = detail.status === 'success' ? 'success' : detail.status === 'pending' ? 'warning' : 'danger';
  return (
    <Card title={titleOf(detail, userId)} className={`${styles.receipt} receipt`}>
      <p className={styles.amount} data-testid="receipt-amount">
        {formatRupees(detail.amount)}
      </p>
      <dl className={styles.details}>
        <Row label={t('paymentDetail.from')}>{detail.from.name}</Row>
        <Row label={t('paymentDetail.to')}>{detail.to.name}</Row>
        <Row label={t('paymentDetail.note')}>{detail.reference || '-'}</Row>
        <Row label={t('paymentDetail.time')}>
          {t('paymentDetail.timeIst', { time: formatDateTime(detail.createdAt) })}
        </Row>
        <Row label={t('paymentDetail.reference')}>
          <span className="mono">{detail._id}</span>
        </Row>
        <Row label={t('paymentDetail.status')}>
          <Badge tone={tone}>{t(STATUS_WORDS[detail.status])}</Badge>
        </Row>
        {detail.failureReason ? <Row label={t('paymentDetail.failureReason')}>{detail.failureReason}</Row> : null}
      </dl>
      {detail.reversedAt ? (
        <Notice tone="info" title={t('paymentDetail.reversedTitle')}>
          {t('paymentDetail.reversedText', { time: formatDateTime(detail.reversedAt) })}
        </Notice>
      ) : null}
    </Card>
  );
}

function ReceiptActions({ transactionId }: { transactionId: string }): ReactElement {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  async function download(): Promise<void> {
    setError(null);
    try {
      await downloadReceipt(transactionId);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t('paymentDetail.downloadFailed'));
    }
  }
  return (
    <div className={`${styles.actions} no-print`}>
      <Button onClick={() => void download()}>
        <Icon name="download" size={18} /> {t('paymentDetail.downloadPdf')}
      </Button>
      <Button variant="secondary" onClick={() => window.print()}>
        {t('paymentDetail.print')}
      </Button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TransactionDetailPage({
  transactionId,
  userId,
}: {
  transactionId: string;
  userId: string;
}): ReactElement {
  const { t } = useTranslation();
  const query = useTransaction(transactionId);
  return (
    <div className="page">
      <PageHeader title={t('paymentDetail.title')}>
        <Link to="/transactions" className="no-print">
          {t('paymentDetail.back')}
        </Link>
      </PageHeader>
      {query.isPending ? <p className="muted">{t('paymentDetail.loading')}</p> : null}
      {query.isError ? <Notice tone="danger">{t('paymentDetail.notFound')}</Notice> : null}
      {query.data ? (
        <>
          <Receipt detail={query.data} userId={userId} />
          <ReceiptActions transactionId={query.data._id} />
          <DisputePanel detail={query.data} />
        </>
      ) : null}
    </div>
  );
}
