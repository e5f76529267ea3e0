/**
 * The requests screen (spec section 2): REQUEST MONEY, Sent/Received tabs with counts,
 * desktop table and expandable mobile cards, Approve (PIN) / Reject for received pending
 * requests, summary tiles and empty states.
 */
import { Tabs } from 'radix-ui';
import { useState, type ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, EmptyState, PageHeader, SummaryTile, type BadgeTone } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import { useRequests, type MoneyRequestRecord } from '../api/get-requests.ts';
import { ApproveDialog } from './ApproveDialog.tsx';
import { SendRequestDialog } from './SendRequestDialog.tsx';
import { useDecision } from './useDecision.ts';

type Tab = 'sent' | 'received';

const STATUS_TONE: Record<string, BadgeTone> = { pending: 'warning', accepted: 'success', rejected: 'danger' };
const EMPTY_TEXT: Record<Tab, [string, string]> = {
  sent: ['No sent requests found', "You haven't sent any money requests yet"],
  received: ['No received requests found', "You haven't received any money requests yet"],
};

function StatusBadge({ status }: { status: string }): ReactElement {
  return <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{status.charAt(0).toUpperCase() + status.slice(1)}</Badge>;
}

function person(party: { firstName: string; lastName: string }): string {
  return `${party.firstName} ${party.lastName}`.trim();
}

export function RequestsPage({ userId }: { userId: string }): ReactElement {
  const [tab, setTab] = useState<Tab>('received');
  const [sendOpen, setSendOpen] = useState(false);
  const [approving, setApproving] = useState<MoneyRequestRecord | null>(null);
  const [expanded, setExpanded] = useState<string | null>(null);
  const requests = useRequests();
  const decision = useDecision();
  const all = requests.data ?? [];
  const sent = all.filter((request) => request.sender._id === userId);
  const received = all.filter((request) => request.receiver._id === userId);
  const pending = all.filter((request) => request.status === 'pending').length;

  function actions(request: MoneyRequestRecord): ReactElement {
    const busy = decision.pending && decision.pendingId === request._id;
    return (
      <div className="row-actions">
        <Button size="sm" variant="success" onClick={() => setApproving(request)} disabled={busy}>
          Approve
        </Button>
        <Button
          size="sm"
          variant="danger"
          onClick={() => void decision.decide(request._id, 'rejected')}
          disabled={busy}
        >
          Reject
        </Button>
      </div>
    );
  }
  const canDecide = (which: Tab, request: MoneyRequestRecord) => which === 'received' && request.status === 'pending';

  function columns(which: Tab): Column<MoneyRequestRecord>[] {
    return [
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
      {
        id: 'party',
        header: which === 'sent' ? 'To' : 'From',
        cell: (row) => person(which === 'sent' ? row.receiver : row.sender),
      },
      { id: 'reference', header: 'Reference', cell: (row) => row.reference },
      { id: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
      {
        id: 'action',
        header: 'Date/Action',
        cell: (row) => (canDecide(which, row) ? actions(row) : formatDateTime(row.createdAt)),
      },
    ];
  }

  function panel(which: Tab, rows: MoneyRequestRecord[]): ReactElement {
    if (requests.isPending) return <p className="muted pad">Loading requests...</p>;
    if (requests.isError) return <EmptyState title="Failed to fetch requests" text={requests.error.message} />;
    if (rows.length === 0)
      return <EmptyState title={EMPTY_TEXT[which][0]} text={EMPTY_TEXT[which][1]} icon="requests" />;
    return (
      <>
        <div className="only-desktop">
          <DataTable
            rows={rows}
            columns={columns(which)}
            caption={which === 'sent' ? 'Sent requests' : 'Received requests'}
          />
        </div>
        <ul className="only-mobile card-list">
          {rows.map((row) => {
            const open = expanded === row._id;
            return (
              <li key={row._id} className="list-card">
                <button
                  type="button"
                  className="list-card-toggle"
                  aria-expanded={open}
                  onClick={() => setExpanded(open ? null : row._id)}
                >
                  <div>
                    <strong>{person(which === 'sent' ? row.receiver : row.sender)}</strong>
                    <p className="muted small">{formatDateTime(row.createdAt)}</p>
                  </div>
                  <div className="list-card-end">
                    <strong>{formatRupees(row.amount)}</strong>
                    <StatusBadge status={row.status} />
                  </div>
                  <Icon name="chevronDown" size={18} className={open ? 'rotate' : ''} />
                </button>
                {open ? (
                  <div className="list-card-detail">
                    <p>
                      <span className="muted">Reference:</span> {row.reference}
                    </p>
                    <p>
                      <span className="muted">Id:</span> <span className="mono">{row._id}</span>
                    </p>
                    {canDecide(which, row) ? actions(row) : null}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      </>
    );
  }

  return (
    <div className="page">
      <PageHeader title="REQUESTS" subtitle="Ask for money and answer requests from others.">
        <Button onClick={() => setSendOpen(true)}>
          <Icon name="plus" size={18} /> REQUEST MONEY
        </Button>
      </PageHeader>
      <div className="tiles">
        <SummaryTile label="Total Sent" value={sent.length} tone="info" />
        <SummaryTile label="Total Received" value={received.length} tone="success" />
        <SummaryTile label="Pending" value={pending} tone="warning" />
      </div>
      <section className="card">
        <Tabs.Root value={tab} onValueChange={(value) => setTab(value === 'sent' ? 'sent' : 'received')}>
          <Tabs.List className="tabs" aria-label="Requests">
            <Tabs.Trigger value="sent" className="tab">
              Sent ({sent.length})
            </Tabs.Trigger>
            <Tabs.Trigger value="received" className="tab">
              Received ({received.length})
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="sent" className="tab-panel">
            {panel('sent', sent)}
          </Tabs.Content>
          <Tabs.Content value="received" className="tab-panel">
            {panel('received', received)}
          </Tabs.Content>
        </Tabs.Root>
      </section>
      <SendRequestDialog open={sendOpen} onOpenChange={setSendOpen} userId={userId} />
      <ApproveDialog
        request={approving}
        busy={decision.pending}
        onCancel={() => setApproving(null)}
        onApprove={(pin) => (approving ? decision.decide(approving._id, 'accepted', pin) : Promise.resolve(false))}
      />
    </div>
  );
}
