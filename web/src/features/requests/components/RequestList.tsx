/**
 * One tab of the requests screen: a table on wide screens, expandable cards on small ones;
 * received pending requests carry Approve / Reject (on a card, in sight without opening it).
 */
import type { ReactElement } from 'react';
import { CardList, ExpandableCard, type ExpandedCard } from '../../../components/CardList/CardList.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Badge, type BadgeTone } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import type { MoneyRequestRecord } from '../api/get-requests.ts';

export type RequestTab = 'sent' | 'received';

const STATUS_TONE: Record<string, BadgeTone> = { pending: 'warning', accepted: 'success', rejected: 'danger' };

function StatusBadge({ status }: { status: string }): ReactElement {
  return <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{status.charAt(0).toUpperCase() + status.slice(1)}</Badge>;
}

function person(party: { firstName: string; lastName: string }): string {
  return `${party.firstName} ${party.lastName}`.trim();
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

export function RequestList(props: RequestListProps): ReactElement {
  const { which, rows, cards } = props;
  const canDecide = (request: MoneyRequestRecord) => which === 'received' && request.status === 'pending';
  const counterparty = (row: MoneyRequestRecord) => person(which === 'sent' ? row.receiver : row.sender);

  function actions(request: MoneyRequestRecord): ReactElement {
    const busy = props.busyId === request._id;
    return (
      <div className="row-actions">
        <Button size="sm" variant="success" onClick={() => props.onApprove(request)} disabled={busy}>
          Approve
        </Button>
        <Button size="sm" variant="danger" onClick={() => props.onReject(request)} disabled={busy}>
          Reject
        </Button>
      </div>
    );
  }

  const columns: Column<MoneyRequestRecord>[] = [
    {
      id: 'id',
      header: 'Id',
      cell: (row) => (
        <span className="mono" title={row._id}>
          {shortId(row._id)}
        </span>
      ),
    },
    { id: 'amount', header: 'Amount', align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'party', header: which === 'sent' ? 'To' : 'From', cell: counterparty },
    { id: 'reference', header: 'Reference', cell: (row) => row.reference },
    { id: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
    {
      id: 'action',
      header: 'Date/Action',
      cell: (row) => (canDecide(row) ? actions(row) : formatDateTime(row.createdAt)),
    },
  ];

  return (
    <>
      <div className="only-desktop">
        <DataTable rows={rows} columns={columns} caption={which === 'sent' ? 'Sent requests' : 'Received requests'} />
      </div>
      <CardList
        rows={rows}
        renderCard={(row) => (
          <>
            <ExpandableCard
              open={cards.isOpen(row._id)}
              onToggle={() => cards.toggle(row._id)}
              title={counterparty(row)}
              subtitle={formatDateTime(row.createdAt)}
              end={
                <>
                  <strong>{formatRupees(row.amount)}</strong>
                  <StatusBadge status={row.status} />
                </>
              }
            >
              <p>
                <span className="muted">Reference:</span> {row.reference}
              </p>
              <p>
                <span className="muted">Id:</span> <span className="mono">{row._id}</span>
              </p>
            </ExpandableCard>
            {/* A request waiting for an answer shows its buttons without being opened. */}
            {canDecide(row) ? actions(row) : null}
          </>
        )}
      />
    </>
  );
}
