/**
 * The admin audit trail: every admin action (who, what, on what, why), newest first, with
 * "Load more". Each action is shown by its name in the reader's language, never its code.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const trail = useAuditTrail();
  const rows: AuditRow[] = (trail.data?.pages ?? [])
    .flatMap((page) => page.items)
    .map((row) => ({ ...row, _id: row.id }));
  const columns: Column<AuditRow>[] = [
    { id: 'time', header: t('audit.time'), cell: (row) => formatDateTime(row.recordedAt) },
    {
      id: 'actor',
      header: t('audit.actor'),
      cell: (row) => <span title={row.actorId}>{row.actorName ?? shortId(row.actorId)}</span>,
    },
    {
      id: 'action',
      header: t('audit.action'),
      // The code as the API and its CSV name it stays in the tooltip, for matching the two.
      cell: (row) => (
        <Badge tone="info">
          <span title={row.action}>{t(`audit.actionNames.${row.action}`)}</span>
        </Badge>
      ),
    },
    { id: 'target', header: t('audit.target'), cell: (row) => <span className="mono-wrap">{row.target}</span> },
    { id: 'reason', header: t('audit.reason'), cell: (row) => row.reason ?? '-' },
  ];
  return (
    <Card title={t('audit.auditTrail')} className={styles.auditSection}>
      {trail.isPending ? (
        <p className="muted pad">{t('audit.loadingAuditTrail')}</p>
      ) : trail.isError ? (
        <EmptyState title={t('audit.auditTrailFailed')} text={trail.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('audit.noAdminActions')} />
      ) : (
        <>
          <ResponsiveTable rows={rows} columns={columns} caption={t('audit.auditTrail')} />
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
