/**
 * The admin audit trail: every admin action (who, what, on what, why), newest first, with
 * "Load more".
 */
import type { ReactElement } from 'react';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Badge, Card, EmptyState } from '../../../components/ui/misc.tsx';
import { formatDateTime, shortId } from '../../../lib/format.ts';
import { useAuditTrail } from '../api/get-audit-trail.ts';
import type { AdminActionRecord } from '../api/types.ts';
import { LoadMore } from './LoadMore.tsx';
import styles from './Audit.module.css';

type AuditRow = AdminActionRecord & { _id: string };

export function AuditTrailCard(): ReactElement {
  const trail = useAuditTrail();
  const rows: AuditRow[] = (trail.data?.pages ?? [])
    .flatMap((page) => page.items)
    .map((row) => ({ ...row, _id: row.id }));
  const columns: Column<AuditRow>[] = [
    { id: 'time', header: 'Time', cell: (row) => formatDateTime(row.recordedAt) },
    {
      id: 'actor',
      header: 'Actor',
      cell: (row) => <span title={row.actorId}>{row.actorName ?? shortId(row.actorId)}</span>,
    },
    { id: 'action', header: 'Action', cell: (row) => <Badge tone="info">{row.action}</Badge> },
    { id: 'target', header: 'Target', cell: (row) => <span className="mono-wrap">{row.target}</span> },
    { id: 'reason', header: 'Reason', cell: (row) => row.reason ?? '-' },
  ];
  return (
    <Card title="Audit trail" className={styles.auditSection}>
      {trail.isPending ? (
        <p className="muted pad">Loading audit trail...</p>
      ) : trail.isError ? (
        <EmptyState title="Failed to fetch the audit trail" text={trail.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState title="No admin actions yet" />
      ) : (
        <>
          <ResponsiveTable rows={rows} columns={columns} caption="Audit trail" />
          <LoadMore
            hasMore={trail.hasNextPage}
            loading={trail.isFetchingNextPage}
            onLoad={() => void trail.fetchNextPage()}
          />
        </>
      )}
    </Card>
  );
}
