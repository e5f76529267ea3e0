/**
 * Projection status: checkpoint, lag in events and seconds, the last error and a Replay
 * per projection; a notice when an open transaction holds events back.
 */
import type { ReactElement } from 'react';
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
  const status = useProjections();
  const rows = (status.data?.projections ?? []).map((row) => ({ ...row, _id: row.name }));
  const columns: Column<ProjectionState & { _id: string }>[] = [
    { id: 'name', header: 'Projection', cell: (row) => <strong>{row.name}</strong> },
    {
      id: 'checkpoint',
      header: 'Checkpoint',
      align: 'right',
      cell: (row) => <span className="mono">{row.checkpoint}</span>,
    },
    { id: 'lagEvents', header: 'Lag (events)', align: 'right', cell: (row) => row.lagEvents },
    { id: 'lagSeconds', header: 'Lag (s)', align: 'right', cell: (row) => row.lagSeconds.toFixed(1) },
    {
      id: 'error',
      header: 'Last error',
      cell: (row) =>
        row.lastError ? <Badge tone="danger">{row.lastError}</Badge> : <span className="muted">none</span>,
    },
    {
      id: 'replay',
      header: 'Replay',
      cell: (row) => <ReplayCell projection={row} onDone={() => void status.refetch()} />,
    },
  ];
  return (
    <Card
      title="Projections"
      className={styles.auditSection}
      actions={
        <Button size="sm" variant="secondary" onClick={() => void status.refetch()} disabled={status.isFetching}>
          <Icon name="refresh" size={16} /> Refresh
        </Button>
      }
    >
      {status.isPending ? (
        <p className="muted pad">Loading projections...</p>
      ) : status.isError ? (
        <EmptyState title="Failed to fetch projection status" text={status.error.message} />
      ) : (
        <>
          {status.data.heldBackEvents > 0 ? (
            <Notice tone="warning">{status.data.heldBackEvents} event(s) held back by an open transaction.</Notice>
          ) : null}
          <ResponsiveTable rows={rows} columns={columns} caption="Projections" />
        </>
      )}
    </Card>
  );
}
