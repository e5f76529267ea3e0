/**
 * Bank-transfer and UPI deposits waiting for an admin (GET /api/admin/pending-deposits): what
 * the payer entered (UPI ID, or account, IFSC and bank) beside the amount and reference, and
 * the row's review (DepositReviewCell.tsx: Settle, Fail, a settlement waiting for a second
 * admin, Details). The id shown is the deposit's transaction id, the one the customer's
 * history shows and the settle and fail routes take. Download CSV saves the list to match
 * against the bank statement.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { methodLabel } from '../../../lib/method-label.ts';
import { downloadPendingDepositsCsv } from '../api/download-pending-deposits.ts';
import { usePendingDeposits, type PendingDeposit } from '../api/get-pending-deposits.ts';
import { DepositDetailDialog } from './DepositDetailDialog.tsx';
import { DepositReviewCell } from './DepositReviewCell.tsx';
import { payerLine, whose } from './deposit-words.ts';
import { FailDepositDialog } from './FailDepositDialog.tsx';
import styles from './PendingDeposits.module.css';
import { usePendingDepositReview } from './usePendingDepositReview.ts';

type DepositRow = PendingDeposit & { _id: string };

function useCsvDownload(): () => void {
  const { t } = useTranslation();
  const notify = useToast();
  return () =>
    void downloadPendingDepositsCsv().catch((error: unknown) =>
      notify({ tone: 'error', message: error instanceof Error ? error.message : t('topUp.csvFailed') }),
    );
}

export function PendingDepositsCard({ currentUserId }: { currentUserId: string }): ReactElement {
  const { t } = useTranslation();
  const deposits = usePendingDeposits();
  const review = usePendingDepositReview();
  const download = useCsvDownload();
  const [opened, open] = useState<PendingDeposit | null>(null);
  const rows: DepositRow[] = (deposits.data?.items ?? []).map((row) => ({ ...row, _id: row.depositId }));
  const columns: Column<DepositRow>[] = [
    { id: 'time', header: t('users.requested'), cell: (row) => formatDateTime(row.requestedAt) },
    { id: 'customer', header: t('users.customer'), cell: whose },
    { id: 'method', header: t('users.method'), cell: (row) => <Badge tone="info">{methodLabel(row.method)}</Badge> },
    { id: 'amount', header: t('users.amount'), align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'reference', header: t('users.reference'), cell: (row) => row.reference },
    { id: 'payer', header: t('topUp.payer'), cell: (row) => <span className="mono-wrap">{payerLine(row)}</span> },
    { id: 'id', header: t('users.depositId'), cell: (row) => <span className="mono-wrap">{row.depositId}</span> },
    {
      id: 'review',
      header: t('users.review'),
      cell: (row) => <DepositReviewCell row={row} review={review} currentUserId={currentUserId} onDetails={open} />,
    },
  ];
  return (
    <Card
      title={t('users.deposits')}
      className={styles.card}
      actions={
        <div className={styles.headerActions}>
          <Button size="sm" variant="secondary" onClick={download} disabled={rows.length === 0}>
            <Icon name="download" size={16} /> {t('topUp.downloadCsv')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => void deposits.refetch()} disabled={deposits.isFetching}>
            <Icon name="refresh" size={16} /> {t('users.refreshDeposits')}
          </Button>
        </div>
      }
    >
      {deposits.isPending ? (
        <p className="muted pad">{t('users.loadingDeposits')}</p>
      ) : deposits.isError ? (
        <EmptyState title={t('users.depositsFailed')} text={deposits.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('users.noDeposits')} text={t('users.noDepositsText')} />
      ) : (
        <ResponsiveTable rows={rows} columns={columns} caption={t('users.deposits')} />
      )}
      <FailDepositDialog
        deposit={review.failing}
        busy={review.busyWith !== null}
        onClose={() => review.askFailure(null)}
        onFail={review.fail}
      />
      <DepositDetailDialog deposit={opened} onClose={() => open(null)} />
    </Card>
  );
}
