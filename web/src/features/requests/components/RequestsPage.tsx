/**
 * The requests screen (spec section 2): REQUEST MONEY, Sent/Received tabs with counts,
 * desktop table and expandable mobile cards (RequestList.tsx), Approve (PIN) / Reject for
 * received pending requests, summary tiles and empty states.
 */
import { Tabs } from 'radix-ui';
import { useState, type ReactElement } from 'react';
import { useExpandedCard } from '../../../components/CardList/CardList.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { useRequests, type MoneyRequestRecord } from '../api/get-requests.ts';
import { ApproveDialog } from './ApproveDialog.tsx';
import { RequestList, type RequestTab } from './RequestList.tsx';
import { SendRequestDialog } from './SendRequestDialog.tsx';
import { useDecision } from './useDecision.ts';

const EMPTY_TEXT: Record<RequestTab, [string, string]> = {
  sent: ['No sent requests found', "You haven't sent any money requests yet"],
  received: ['No received requests found', "You haven't received any money requests yet"],
};

export function RequestsPage({ userId }: { userId: string }): ReactElement {
  const [tab, setTab] = useState<RequestTab>('received');
  const [sendOpen, setSendOpen] = useState(false);
  const [approving, setApproving] = useState<MoneyRequestRecord | null>(null);
  const cards = useExpandedCard();
  const requests = useRequests();
  const decision = useDecision();
  const all = requests.data ?? [];
  const sent = all.filter((request) => request.sender._id === userId);
  const received = all.filter((request) => request.receiver._id === userId);
  const pending = all.filter((request) => request.status === 'pending').length;

  function panel(which: RequestTab, rows: MoneyRequestRecord[]): ReactElement {
    if (requests.isPending) return <p className="muted pad">Loading requests...</p>;
    if (requests.isError) return <EmptyState title="Failed to fetch requests" text={requests.error.message} />;
    if (rows.length === 0)
      return <EmptyState title={EMPTY_TEXT[which][0]} text={EMPTY_TEXT[which][1]} icon="requests" />;
    return (
      <RequestList
        which={which}
        rows={rows}
        cards={cards}
        onApprove={setApproving}
        onReject={(request) => void decision.decide(request._id, 'rejected')}
        busyId={decision.pending ? decision.pendingId : undefined}
      />
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
