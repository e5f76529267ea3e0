/**
 * Money actions (settlements, reversals) above the approval threshold, waiting for a
 * second admin: Approve or Reject, or Withdraw one's own.
 */
import type { ReactElement } from 'react';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import { usePendingApprovals, type ApprovalRecord } from '../api/approvals.ts';
import { useApprovalDecision } from './useApprovalDecision.ts';
import styles from './Audit.module.css';

type ApprovalRow = ApprovalRecord & { _id: string };

/** Requests another admin filed can be approved here; one's own can only be withdrawn. */
export function ApprovalsCard({ currentUserId }: { currentUserId: string }): ReactElement {
  const approvals = usePendingApprovals();
  const decide = useApprovalDecision(currentUserId);
  const rows: ApprovalRow[] = (approvals.data ?? []).map((row) => ({ ...row, _id: row.id }));
  const columns: Column<ApprovalRow>[] = [
    { id: 'time', header: 'Requested', cell: (row) => formatDateTime(row.requestedAt) },
    {
      id: 'by',
      header: 'By',
      cell: (row) => <span title={row.requestedBy}>{row.requestedByName ?? shortId(row.requestedBy)}</span>,
    },
    { id: 'action', header: 'Action', cell: (row) => <Badge tone="warning">{row.action}</Badge> },
    { id: 'target', header: 'Target', cell: (row) => <span className="mono-wrap">{row.target}</span> },
    { id: 'amount', header: 'Amount', align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'reason', header: 'Reason', cell: (row) => row.reason ?? '-' },
    {
      id: 'decide',
      header: 'Decision',
      cell: (row) => (
        <div className="row-actions">
          {row.requestedBy === currentUserId ? (
            <span className="small muted">Needs another admin</span>
          ) : (
            <Button
              size="sm"
              variant="success"
              disabled={decide.pending}
              onClick={() => void decide.run(row, 'approve')}
              aria-label={`Approve ${row.action} of ${row.target}`}
            >
              Approve
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            disabled={decide.pending}
            onClick={() => void decide.run(row, 'reject')}
            aria-label={`Reject ${row.action} of ${row.target}`}
          >
            {row.requestedBy === currentUserId ? 'Withdraw' : 'Reject'}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card
      title="Waiting for a second admin"
      className={styles.auditSection}
      actions={
        <Button size="sm" variant="secondary" onClick={() => void approvals.refetch()} disabled={approvals.isFetching}>
          <Icon name="refresh" size={16} /> Refresh
        </Button>
      }
    >
      {approvals.isPending ? (
        <p className="muted pad">Loading approval requests...</p>
      ) : approvals.isError ? (
        <EmptyState title="Failed to fetch approval requests" text={approvals.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="Nothing waiting for approval"
          text="Settlements and reversals above the approval threshold appear here."
        />
      ) : (
        <ResponsiveTable rows={rows} columns={columns} caption="Waiting for a second admin" />
      )}
    </Card>
  );
}
