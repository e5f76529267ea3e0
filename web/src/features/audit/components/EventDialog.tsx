/**
 * One ledger event opened from the explorer: its postings (account, amount, running
 * balance), when and by whom it was recorded, and its data.
 */
import type { ReactElement } from 'react';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { EmptyState } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { useEvent } from '../api/get-events.ts';
import type { EventPosting } from '../api/types.ts';
import { SignedAmount } from './LoadMore.tsx';
import styles from './Audit.module.css';

type PostingRow = EventPosting & { _id: string };

export function EventDialog({ position, onClose }: { position: string | null; onClose: () => void }): ReactElement {
  const event = useEvent(position);
  const postings: PostingRow[] = (event.data?.postings ?? []).map((posting) => ({
    ...posting,
    _id: posting.accountId,
  }));
  const columns: Column<PostingRow>[] = [
    {
      id: 'account',
      header: 'Account',
      cell: (row) => <span title={row.accountId}>{row.accountName ?? row.accountId}</span>,
    },
    {
      id: 'amount',
      header: 'Amount',
      align: 'right',
      cell: (row) => <SignedAmount rupees={row.amount} format={formatRupees} />,
    },
    {
      id: 'balance',
      header: 'Balance after',
      align: 'right',
      cell: (row) => (row.balanceAfter === null ? '-' : formatRupees(row.balanceAfter)),
    },
  ];
  return (
    <Modal
      open={position !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Event ${position ?? ''}`}
      description={event.data ? `${event.data.type} on ${event.data.streamId}` : undefined}
      size="lg"
    >
      {event.isPending ? (
        <p className="muted">Loading event...</p>
      ) : event.isError ? (
        <EmptyState title="Failed to fetch the event" text={event.error.message} />
      ) : (
        <>
          <h3 className={`card-title ${styles.auditSubtitle}`}>Postings</h3>
          {postings.length === 0 ? (
            <p className="muted">This event moves no money.</p>
          ) : (
            <ResponsiveTable rows={postings} columns={columns} caption="Postings" />
          )}
          <p className="small">
            <span className="muted">Recorded:</span> {formatDateTime(event.data.recordedAt)} ·{' '}
            <span className="muted">Actor:</span> {event.data.actorId ?? '-'} ·{' '}
            <span className="muted">Request id:</span> {event.data.requestId ?? '-'}
          </p>
          <pre className={styles.auditPre} aria-label="Event data">
            {JSON.stringify(event.data.data, null, 2)}
          </pre>
        </>
      )}
    </Modal>
  );
}
