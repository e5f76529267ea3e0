/**
 * One ledger event opened from the explorer: its postings (account, amount, running
 * balance), when and by whom it was recorded, and its data.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { EmptyState } from '../../../components/ui/misc.tsx';
import { formatBalance, formatDateTime, formatRupees } from '../../../lib/format.ts';
import { useEvent } from '../api/get-events.ts';
import type { EventPosting } from '../api/types.ts';
import { SignedAmount } from './LoadMore.tsx';
import styles from './Audit.module.css';

type PostingRow = EventPosting & { _id: string };

export function EventDialog({ position, onClose }: { position: string | null; onClose: () => void }): ReactElement {
  const { t } = useTranslation();
  const event = useEvent(position);
  const postings: PostingRow[] = (event.data?.postings ?? []).map((posting) => ({
    ...posting,
    _id: posting.accountId,
  }));
  const columns: Column<PostingRow>[] = [
    {
      id: 'account',
      header: t('audit.account'),
      cell: (row) => <span title={row.accountId}>{row.accountName ?? row.accountId}</span>,
    },
    {
      id: 'amount',
      header: t('audit.amount'),
      align: 'right',
      cell: (row) => <SignedAmount rupees={row.amount} format={formatRupees} />,
    },
    {
      id: 'balance',
      header: t('audit.balanceAfter'),
      align: 'right',
      cell: (row) => (row.balanceAfter === null ? '-' : formatBalance(row.balanceAfter)),
    },
  ];
  return (
    <Modal
      open={position !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('audit.eventTitle', { position: position ?? '' })}
      description={
        event.data ? t('audit.eventDescription', { type: event.data.type, stream: event.data.streamId }) : undefined
      }
      size="lg"
    >
      {event.isPending ? (
        <p className="muted">{t('audit.loadingEvent')}</p>
      ) : event.isError ? (
        <EmptyState title={t('audit.eventFailed')} text={event.error.message} />
      ) : (
        <>
          <h3 className={`card-title ${styles.auditSubtitle}`}>{t('audit.postings')}</h3>
          {postings.length === 0 ? (
            <p className="muted">{t('audit.noMoney')}</p>
          ) : (
            <ResponsiveTable rows={postings} columns={columns} caption={t('audit.postings')} />
          )}
          <p className="small">
            <span className="muted">{t('audit.recorded')}</span> {formatDateTime(event.data.recordedAt)} ·{' '}
            <span className="muted">{t('audit.actorLabel')}</span> {event.data.actorId ?? '-'} ·{' '}
            <span className="muted">{t('audit.requestId')}</span> {event.data.requestId ?? '-'}
          </p>
          <pre className={styles.auditPre} aria-label={t('audit.eventData')}>
            {JSON.stringify(event.data.data, null, 2)}
          </pre>
        </>
      )}
    </Modal>
  );
}
