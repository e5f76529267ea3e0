/**
 * Bank-transfer and UPI deposits waiting for an admin (GET /api/admin/pending-deposits),
 * each with Settle and Fail on its row. The id shown is the deposit's transaction id, the one
 * the customer's history shows and the settle and fail routes take. A settlement the
 * four-eyes rule holds back is filed for a second admin (the operations page's approvals).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { usePendingDeposits, type PendingDeposit } from '../api/get-pending-deposits.ts';
import { FailDepositDialog } from './FailDepositDialog.tsx';
import { usePendingDepositReview } from './usePendingDepositReview.ts';

type DepositRow = PendingDeposit & { _id: string };

const METHOD_LABELS: Record<string, 'users.bankTransfer' | 'users.upi'> = {
  bank_transfer: 'users.bankTransfer',
  upi: 'users.upi',
};

function whose(row: PendingDeposit): string {
  return row.ownerName ?? row.walletId;
}

export function PendingDepositsCard(): ReactElement {
  const { t } = useTranslation();
  const deposits = usePendingDeposits();
  const review = usePendingDepositReview();
  const rows: DepositRow[] = (deposits.data?.items ?? []).map((row) => ({ ...row, _id: row.depositId }));
  const columns: Column<DepositRow>[] = [
    { id: 'time', header: t('users.requested'), cell: (row) => formatDateTime(row.requestedAt) },
    { id: 'customer', header: t('users.customer'), cell: whose },
    {
      id: 'method',
      header: t('users.method'),
      cell: (row) => {
        const label = METHOD_LABELS[row.method];
        return <Badge tone="info">{label ? t(label) : row.method}</Badge>;
      },
    },
    { id: 'amount', header: t('users.amount'), align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'reference', header: t('users.reference'), cell: (row) => row.reference },
    { id: 'id', header: t('users.depositId'), cell: (row) => <span className="mono-wrap">{row.depositId}</span> },
    {
      id: 'review',
      header: t('users.review'),
      cell: (row) => (
        <div className="row-actions">
          <Button
            size="sm"
            variant="success"
            disabled={review.busyWith !== null}
            onClick={() => void review.settle(row)}
            aria-label={t('users.settleDeposit', { amount: formatRupees(row.amount), name: whose(row) })}
          >
            {t('users.settle')}
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={review.busyWith !== null}
            onClick={() => review.askFailure(row)}
            aria-label={t('users.failDeposit', { amount: formatRupees(row.amount), name: whose(row) })}
          >
            {t('users.fail')}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card
      title={t('users.deposits')}
      actions={
        <Button size="sm" variant="secondary" onClick={() => void deposits.refetch()} disabled={deposits.isFetching}>
          <Icon name="refresh" size={16} /> {t('users.refreshDeposits')}
        </Button>
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
    </Card>
  );
}
