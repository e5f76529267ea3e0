/**
 * The requests screen (spec section 2): REQUEST MONEY, Sent/Received tabs with counts,
 * desktop table and expandable mobile cards (RequestList.tsx), Approve (PIN) / Reject (asked
 * to confirm) for received pending requests, summary tiles and empty states. While the rate limit holds the
 * list's read, a notice says so and the requests already loaded stay.
 */
import { Tabs } from 'radix-ui';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useExpandedCard } from '../../../components/CardList/CardList.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { HeldReadNotice, useHeldSeconds } from '../../../components/ui/RateLimitNotice.tsx';
import { useRequests, type MoneyRequestRecord } from '../api/get-requests.ts';
import { ApproveDialog } from './ApproveDialog.tsx';
import { RejectDialog } from './RejectDialog.tsx';
import { RequestList, type RequestListProps, type RequestTab } from './RequestList.tsx';
import { SendRequestDialog } from './SendRequestDialog.tsx';
import { useDecision } from './useDecision.ts';

const EMPTY_TEXT = {
  sent: ['requests.noSent', 'requests.noSentText'],
  received: ['requests.noReceived', 'requests.noReceivedText'],
} as const satisfies Record<RequestTab, readonly [string, string]>;

/** What one tab shows: its requests, or why there are none to show (loading, held, failed, empty). */
function RequestPanel({
  which,
  rows,
  requests,
  heldSeconds,
  list,
}: {
  which: RequestTab;
  rows: MoneyRequestRecord[];
  requests: ReturnType<typeof useRequests>;
  heldSeconds: number;
  list: Omit<RequestListProps, 'which' | 'rows'>;
}): ReactElement {
  const { t } = useTranslation();
  // Held by the rate limit: what was loaded stays (below the notice); nothing loaded says when.
  if (heldSeconds > 0 && !requests.data) return <HeldReadNotice seconds={heldSeconds} hasData={false} />;
  if (requests.isPending) return <p className="muted pad">{t('requests.loading')}</p>;
  if (requests.isError && heldSeconds === 0)
    return <EmptyState title={t('requests.fetchFailed')} text={requests.error.message} />;
  if (rows.length === 0)
    return <EmptyState title={t(EMPTY_TEXT[which][0])} text={t(EMPTY_TEXT[which][1])} icon="requests" />;
  return <RequestList which={which} rows={rows} {...list} />;
}

/** Reject (asked to confirm) and Approve (with the PIN) of the request chosen on the list. */
function DecisionDialogs({
  approving,
  rejecting,
  setApproving,
  setRejecting,
  decision,
}: {
  approving: MoneyRequestRecord | null;
  rejecting: MoneyRequestRecord | null;
  setApproving: (request: MoneyRequestRecord | null) => void;
  setRejecting: (request: MoneyRequestRecord | null) => void;
  decision: ReturnType<typeof useDecision>;
}): ReactElement {
  return (
    <>
      <RejectDialog
        request={rejecting}
        busy={decision.pending}
        onCancel={() => setRejecting(null)}
        onReject={(request) =>
          void decision.decide(request._id, 'rejected').then((outcome) => outcome.ok && setRejecting(null))
        }
      />
      <ApproveDialog
        request={approving}
        busy={decision.pending}
        onCancel={() => setApproving(null)}
        onApprove={(pin) =>
          approving ? decision.decide(approving._id, 'accepted', pin) : Promise.resolve({ ok: false })
        }
      />
    </>
  );
}

export function RequestsPage({ userId }: { userId: string }): ReactElement {
  const { t } = useTranslation();
  const [tab, setTab] = useState<RequestTab>('received');
  const [sendOpen, setSendOpen] = useState(false);
  const [approving, setApproving] = useState<MoneyRequestRecord | null>(null);
  const [rejecting, setRejecting] = useState<MoneyRequestRecord | null>(null);
  const cards = useExpandedCard();
  const requests = useRequests();
  const decision = useDecision();
  const all = requests.data ?? [];
  const sent = all.filter((request) => request.sender._id === userId);
  const received = all.filter((request) => request.receiver._id === userId);
  const pending = all.filter((request) => request.status === 'pending').length;
  const heldSeconds = useHeldSeconds(requests);
  const list = {
    cards,
    onApprove: setApproving,
    onReject: setRejecting,
    busyId: decision.pending ? decision.pendingId : undefined,
  };

  return (
    <div className="page">
      <PageHeader title={t('requests.title')} subtitle={t('requests.subtitle')}>
        <Button onClick={() => setSendOpen(true)}>
          <Icon name="plus" size={18} /> {t('requests.requestMoney')}
        </Button>
      </PageHeader>
      <div className="tiles">
        <SummaryTile label={t('requests.totalSent')} value={sent.length} tone="info" />
        <SummaryTile label={t('requests.totalReceived')} value={received.length} tone="success" />
        <SummaryTile label={t('requests.pending')} value={pending} tone="warning" />
      </div>
      <section className="card">
        {requests.data ? <HeldReadNotice seconds={heldSeconds} hasData /> : null}
        <Tabs.Root value={tab} onValueChange={(value) => setTab(value === 'sent' ? 'sent' : 'received')}>
          <Tabs.List className="tabs" aria-label={t('requests.tabs')}>
            <Tabs.Trigger value="sent" className="tab">
              {t('requests.sentTab', { count: sent.length })}
            </Tabs.Trigger>
            <Tabs.Trigger value="received" className="tab">
              {t('requests.receivedTab', { count: received.length })}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="sent" className="tab-panel">
            <RequestPanel which="sent" rows={sent} requests={requests} heldSeconds={heldSeconds} list={list} />
          </Tabs.Content>
          <Tabs.Content value="received" className="tab-panel">
            <RequestPanel which="received" rows={received} requests={requests} heldSeconds={heldSeconds} list={list} />
          </Tabs.Content>
        </Tabs.Root>
      </section>
      {/* The request just sent is in the Sent tab: show it there. */}
      <SendRequestDialog open={sendOpen} onOpenChange={setSendOpen} userId={userId} onSent={() => setTab('sent')} />
      <DecisionDialogs {...{ approving, rejecting, setApproving, setRejecting, decision }} />
    </div>
  );
}
