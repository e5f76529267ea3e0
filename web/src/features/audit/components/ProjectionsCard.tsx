/**
 * Projection status: checkpoint, lag in events and seconds, the last error and a Replay
 * per projection; a notice when an open transaction holds events back.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState, Notice } from '../../../components/ui/misc.tsx';
import { useProjections } from '../api/projections.ts';
import type { ProjectionState } from '../api/types.ts';
import { ReplayCell } from './ReplayCell.tsx';
import styles from './Audit.module.css';

export function ProjectionsCard(): ReactElement {
  const { t } = useTranslation();
  const status = useProjections();
  const rows = (status.data?.projections ?? []).map((row) => ({ ...row, _id: row.name }));
  const columns: Column<ProjectionState & { _id: string }>[] = [
    { id: 'name', header: t('audit.projection'), cell: (row) => <strong>{row.name}</strong> },
    {
      id: 'checkpoint',
      header: t('audit.checkpoint'),
      align: 'right',
      cell: (row) => <span className="mono">{row.checkpoint}</span>,
    },
    { id: 'lagEvents', header: t('audit.lagEvents'), align: 'right', cell: (row) => row.lagEvents },
    { id: 'lagSeconds', header: t('audit.lagSeconds'), align: 'right', cell: (row) => row.lagSeconds.toFixed(1) },
    {
      id: 'error',
      header: t('audit.lastError'),
      cell: (row) =>
        row.lastError ? (
          <Badge tone="danger">{row.lastError}</Badge>
        ) : (
          <span className="muted">{t('audit.noError')}</span>
        ),
    },
    {
      id: 'replay',
      header: t('audit.replay'),
      cell: (row) => <ReplayCell projection={row} />,
    },
  ];
  return (
    <Card
      title={t('audit.projections')}
      className={styles.auditSection}
      actions={
        <Button size="sm" variant="secondary" onClick={() => void status.refetch()} disabled={status.isFetching}>
          <Icon name="refresh" size={16} /> {t('audit.refresh')}
        </Button>
      }
    >
      {status.isPending ? (
        <p className="muted pad">{t('audit.loadingProjections')}</p>
      ) : status.isError ? (
        <EmptyState title={t('audit.projectionsFailed')} text={status.error.message} />
      ) : (
        <>
          {status.data.heldBackEvents > 0 ? (
            <Notice tone="warning">{t('audit.heldBack', { count: status.data.heldBackEvents })}</Notice>
          ) : null}
          <ResponsiveTable rows={rows} columns={columns} caption={t('audit.projections')} />
        </>
      )}
    </Card>
  );
}
