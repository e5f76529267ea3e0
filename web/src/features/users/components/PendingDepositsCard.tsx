/**
 * Bank-transfer and UPI deposits waiting for an admin (GET /api/admin/pending-deposits),
 * each with Settle and Fail on its row. The id shown is the deposit's transaction id, the one
 * the customer's history shows and the settle and fail routes take. A settlement the
 * four-eyes rule holds back is filed for a second admin (the operations page's approvals).
 */
import type { ReactElement } from 'react';
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

const METHOD_LABELS: Record<string, string> = { bank_transfer: 'Bank transfer', upi: 'UPI' };

function whose(row: PendingDeposit): string {
  return row.ownerName ?? row.walletId;
}

export function PendingDepositsCard(): ReactElement {
  const deposits = usePendingDeposits();
  const review = usePendingDepositReview();
  const rows: DepositRow[] = (deposits.data?.items ?? []).map((row) => ({ ...row, _id: row.depositId }));
  const columns: Column<DepositRow>[] = [
    { id: 'time', header: 'Requested', cell: (row) => formatDateTime(row.requestedAt) },
    { id: 'customer', header: 'Customer', cell: whose },
    {
      id: 'method',
      header: 'Method',
      cell: (row) => <Badge tone="info">{METHOD_LABELS[row.method] ?? row.method}</Badge>,
    },
    { id: 'amount', header: 'Amount', align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'reference', header: 'Reference', cell: (row) => row.reference },
    { id: 'id', header: 'Deposit ID', cell: (row) => <span className="mono-wrap">{row.depositId}</span> },
    {
      id: 'review',
      header: 'Review',
      cell: (row) => (
        <div className="row-actions">
          <Button
            size="sm"
            variant="success"
            disabled={review.busyWith !== null}
            onClick={() => void review.settle(row)}
            aria-label={`Settle ${formatRupees(row.amount)} from ${whose(row)}`}
          >
            Settle
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={review.busyWith !== null}
            onClick={() => review.askFailure(row)}
            aria-label={`Fail ${formatRupees(row.amount)} from ${whose(row)}`}
          >
            Fail
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card
      title="Pending deposits"
      actions={
        <Button size="sm" variant="secondary" onClick={() => void deposits.refetch()} disabled={deposits.isFetching}>
          <Icon name="refresh" size={16} /> Refresh
        </Button>
      }
    >
      {deposits.isPending ? (
        <p className="muted pad">Loading pending deposits...</p>
      ) : deposits.isError ? (
        <EmptyState title="Failed to fetch pending deposits" text={deposits.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No deposits waiting"
          text="Bank transfer and UPI deposits appear here until an admin settles or fails them."
        />
      ) : (
        <ResponsiveTable rows={rows} columns={columns} caption="Pending deposits" />
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
