/**
 * Money actions (settlements, reversals) above the approval threshold, waiting for a
 * second admin: Approve or Reject, or Withdraw one's own. Each names the customer whose money
 * it moves and the method (the stream id stays in the customer cell's title, for auditors).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import { methodLabel } from '../../../lib/method-label.ts';
import { usePendingApprovals, type ApprovalRecord } from '../api/approvals.ts';
import { useApprovalDecision } from './useApprovalDecision.ts';
import styles from './Audit.module.css';

type ApprovalRow = ApprovalRecord & { _id: string };

/** Requests another admin filed can be approved here; one's own can only be withdrawn. */
export function ApprovalsCard({ currentUserId }: { currentUserId: string }): ReactElement {
  const { t } = useTranslation();
  const approvals = usePendingApprovals();
  const decide = useApprovalDecision(currentUserId);
  const rows: ApprovalRow[] = (approvals.data ?? []).map((row) => ({ ...row, _id: row.id }));
  // The action's name in the reader's language ('settle' is the wire's code, not a word to show).
  const actionName = (row: ApprovalRow): string => t(`audit.approvalAction.${row.action}`);
  const columns: Column<ApprovalRow>[] = [
    { id: 'time', header: t('audit.requested'), cell: (row) => formatDateTime(row.requestedAt) },
    {
      id: 'by',
      header: t('audit.by'),
      cell: (row) => <span title={row.requestedBy}>{row.requestedByName ?? shortId(row.requestedBy)}</span>,
    },
    { id: 'action', header: t('audit.action'), cell: (row) => <Badge tone="warning">{actionName(row)}</Badge> },
    {
      id: 'customer',
      header: t('topUp.customer'),
      cell: (row) => (
        <span title={row.target}>{row.customerName ?? (row.customerId ? shortId(row.customerId) : row.target)}</span>
      ),
    },
    { id: 'method', header: t('topUp.method'), cell: (row) => methodLabel(row.method) },
    { id: 'amount', header: t('audit.amount'), align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'reason', header: t('audit.reason'), cell: (row) => row.reason ?? '-' },
    {
      id: 'decide',
      header: t('audit.decision'),
      cell: (row) => (
        <div className="row-actions">
          {row.requestedBy === currentUserId ? (
            <span className="small muted">{t('audit.needsAnotherAdmin')}</span>
          ) : (
            <Button
              size="sm"
              variant="success"
              disabled={decide.pending}
              onClick={() => void decide.run(row, 'approve')}
              aria-label={t('audit.approveLabel', { action: actionName(row).toLowerCase(), target: row.target })}
            >
              {t('audit.approve')}
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            disabled={decide.pending}
            onClick={() => void decide.run(row, 'reject')}
            aria-label={t('audit.rejectLabel', { action: actionName(row).toLowerCase(), target: row.target })}
          >
            {row.requestedBy === currentUserId ? t('audit.withdraw') : t('audit.reject')}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card
      title={t('audit.approvalsTitle')}
      className={styles.auditSection}
      actions={
        <Button size="sm" variant="secondary" onClick={() => void approvals.refetch()} disabled={approvals.isFetching}>
          <Icon name="refresh" size={16} /> {t('audit.refresh')}
        </Button>
      }
    >
      {approvals.isPending ? (
        <p className="muted pad">{t('audit.loadingApprovals')}</p>
      ) : approvals.isError ? (
        <EmptyState title={t('audit.approvalsFailed')} text={approvals.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('audit.noApprovals')} text={t('audit.noApprovalsText')} />
      ) : (
        <ResponsiveTable rows={rows} columns={columns} caption={t('audit.approvalsTitle')} />
      )}
    </Card>
  );
}
