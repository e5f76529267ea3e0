/**
 * One tab of the requests screen: a table on wide screens, expandable cards on small ones;
 * received pending requests carry Approve / Reject (on a card, in sight without opening it).
 */
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList, ExpandableCard, type ExpandedCard } from '../../../components/CardList/CardList.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Badge, type BadgeTone } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, idTail } from '../../../lib/format.ts';
import type { MoneyRequestRecord } from '../api/get-requests.ts';
import styles from './RequestList.module.css';

export type RequestTab = 'sent' | 'received';

const STATUS = {
  pending: { tone: 'warning', text: 'requests.statusPending' },
  accepted: { tone: 'success', text: 'requests.statusAccepted' },
  rejected: { tone: 'danger', text: 'requests.statusRejected' },
} as const satisfies Record<MoneyRequestRecord['status'], { tone: BadgeTone; text: string }>;

function StatusBadge({ status }: { status: MoneyRequestRecord['status'] }): ReactElement {
  const { t } = useTranslation();
  return <Badge tone={STATUS[status].tone}>{t(STATUS[status].text)}</Badge>;
}

function person(party: { firstName: string; lastName: string }): string {
  return `${party.firstName} ${party.lastName}`.trim();
}

/** An answered request's date is when it was answered, with when it was asked beneath it. */
function RequestDate({ request }: { request: MoneyRequestRecord }): ReactElement {
  const { t } = useTranslation();
  if (!request.decidedAt) return <>{formatDateTime(request.createdAt)}</>;
  return (
    <span className={styles.dates}>
      <span>{formatDateTime(request.decidedAt)}</span>
      <span className="muted small">{t('requests.askedOn', { date: formatDateTime(request.createdAt) })}</span>
    </span>
  );
}

export interface RequestListProps {
  which: RequestTab;
  rows: MoneyRequestRecord[];
  /** Which mobile card is open: held by the page, so it stays open across the tabs. */
  cards: ExpandedCard;
  onApprove: (request: MoneyRequestRecord) => void;
  onReject: (request: MoneyRequestRecord) => void;
  /** The request being decided, whose buttons are disabled. */
  busyId: string | undefined;
}

/** Approve and Reject of a received request that waits for an answer. */
function DecisionButtons({ request, props }: { request: MoneyRequestRecord; props: RequestListProps }): ReactElement {
  const { t } = useTranslation();
  const busy = props.busyId === request._id;
  return (
    <div className="row-actions">
      <Button size="sm" variant="success" onClick={() => props.onApprove(request)} disabled={busy}>
        {t('requests.approve')}
      </Button>
      <Button size="sm" variant="danger" onClick={() => props.onReject(request)} disabled={busy}>
        {t('requests.reject')}
      </Button>
    </div>
  );
}

const canDecide = (which: RequestTab, request: MoneyRequestRecord) =>
  which === 'received' && request.status === 'pending';

/** The other side of a request: who was asked on Sent, who asked on Received. */
const counterparty = (which: RequestTab, row: MoneyRequestRecord) =>
  person(which === 'sent' ? row.receiver : row.sender);

function columnsFor(props: RequestListProps, t: TFunction): Column<MoneyRequestRecord>[] {
  const { which } = props;
  return [
    {
      id: 'id',
      header: t('requests.id'),
      cell: (row) => (
        <span className="mono" title={row._id}>
          {idTail(row._id)}
        </span>
      ),
    },
    { id: 'amount', header: t('transactions.amount'), align: 'right', cell: (row) => formatRupees(row.amount) },
    {
      id: 'party',
      header: which === 'sent' ? t('requests.to') : t('requests.from'),
      cell: (row) => counterparty(which, row),
    },
    { id: 'reference', header: t('payment.reference'), cell: (row) => row.reference },
    { id: 'status', header: t('transactions.status'), cell: (row) => <StatusBadge status={row.status} /> },
    {
      id: 'action',
      header: t('requests.dateAction'),
      cell: (row) =>
        canDecide(which, row) ? <DecisionButtons request={row} props={props} /> : <RequestDate request={row} />,
    },
  ];
}

/** A phone's card of one request; a request waiting for an answer shows its buttons without being opened. */
function RequestCard({ row, props }: { row: MoneyRequestRecord; props: RequestListProps }): ReactElement {
  const { t } = useTranslation();
  const { which, cards } = props;
  return (
    <>
      <ExpandableCard
        open={cards.isOpen(row._id)}
        onToggle={() => cards.toggle(row._id)}
        title={counterparty(which, row)}
        subtitle={formatDateTime(row.decidedAt ?? row.createdAt)}
        end={
          <>
            <strong>{formatRupees(row.amount)}</strong>
            <StatusBadge status={row.status} />
          </>
        }
      >
        <p>
          <span className="muted">{t('requests.referenceLabel')}</span> {row.reference}
        </p>
        <p>
          <span className="muted">{t('requests.idLabel')}</span> <span className="mono">{row._id}</span>
        </p>
        {row.decidedAt ? (
          <p className="muted">{t('requests.askedOn', { date: formatDateTime(row.createdAt) })}</p>
        ) : null}
      </ExpandableCard>
      {canDecide(which, row) ? <DecisionButtons request={row} props={props} /> : null}
    </>
  );
}

export function RequestList(props: RequestListProps): ReactElement {
  const { t } = useTranslation();
  const { which, rows } = props;
  return (
    <>
      <div className="only-desktop">
        <DataTable
          rows={rows}
          columns={columnsFor(props, t)}
          caption={which === 'sent' ? t('requests.sentCaption') : t('requests.receivedCaption')}
        />
      </div>
      <CardList rows={rows} renderCard={(row) => <RequestCard row={row} props={props} />} />
    </>
  );
}
