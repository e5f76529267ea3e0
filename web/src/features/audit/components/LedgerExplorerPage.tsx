/**
 * /admin/ledger: the ledger explorer - events filtered by stream, type, actor and time
 * range, paged by position ("Load more"); choosing an event opens its postings (account,
 * amount, running balance) and its data in a dialog.
 */
import { useState, type ReactElement } from 'react';
import { EVENT_TYPES } from '../../../../../contracts/admin.ts';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { SelectField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { Card, EmptyState, PageHeader } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import { useEvent, useEvents, type ExplorerFilters } from '../api/get-events.ts';
import type { EventPosting, RawEvent } from '../api/types.ts';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { LoadMore, SignedAmount } from './LoadMore.tsx';

const TYPE_OPTIONS = EVENT_TYPES.map((type) => ({ value: type, label: type }));

const NO_FILTERS: ExplorerFilters = { stream: '', type: '', actor: '', from: '', to: '' };

type EventRow = RawEvent & { _id: string };
type PostingRow = EventPosting & { _id: string };

function EventDialog({ position, onClose }: { position: string | null; onClose: () => void }): ReactElement {
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
          <h3 className="card-title audit-subtitle">Postings</h3>
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
          <pre className="audit-pre" aria-label="Event data">
            {JSON.stringify(event.data.data, null, 2)}
          </pre>
        </>
      )}
    </Modal>
  );
}

export function LedgerExplorerPage(): ReactElement {
  const [draft, setDraft] = useState<ExplorerFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<ExplorerFilters>(NO_FILTERS);
  const [open, setOpen] = useState<string | null>(null);
  const events = useEvents(filters);
  const rows: EventRow[] = (events.data?.pages ?? [])
    .flatMap((page) => page.items)
    .map((event) => ({ ...event, _id: event.position }));
  const columns: Column<EventRow>[] = [
    {
      id: 'position',
      header: 'Position',
      cell: (row) => (
        <Button
          size="sm"
          variant="link"
          onClick={() => setOpen(row.position)}
          aria-label={`Open event ${row.position}`}
        >
          {row.position}
        </Button>
      ),
    },
    { id: 'time', header: 'Time', cell: (row) => formatDateTime(row.recordedAt) },
    { id: 'type', header: 'Type', cell: (row) => row.type },
    { id: 'stream', header: 'Stream', cell: (row) => <span className="mono-wrap">{row.streamId}</span> },
    {
      id: 'actor',
      header: 'Actor',
      cell: (row) => (
        <span className="mono-wrap" title={row.actorId ?? ''}>
          {row.actorId ? shortId(row.actorId) : '-'}
        </span>
      ),
    },
    { id: 'command', header: 'Command', cell: (row) => row.command ?? '-' },
  ];
  const set = (key: keyof ExplorerFilters) => (value: string) => setDraft({ ...draft, [key]: value });
  return (
    <div className="page">
      <PageHeader title="LEDGER EXPLORER" subtitle="Every event of the log, in position order." />
      <Card>
        <form
          className="audit-filters"
          aria-label="Event filters"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters(draft);
          }}
        >
          <TextField label="Stream" value={draft.stream} onValueChange={set('stream')} placeholder="transfer-..." />
          <SelectField
            label="Type"
            value={draft.type}
            options={TYPE_OPTIONS}
            placeholder="All types"
            onValueChange={set('type')}
          />
          <TextField label="Actor id" value={draft.actor} onValueChange={set('actor')} />
          <TextField label="From" type="date" value={draft.from} onValueChange={set('from')} />
          <TextField label="To" type="date" value={draft.to} onValueChange={set('to')} />
          <div className="audit-actions">
            <Button type="submit">Apply</Button>
            <Button
              variant="ghost"
              onClick={() => {
                setDraft(NO_FILTERS);
                setFilters(NO_FILTERS);
              }}
            >
              Clear
            </Button>
          </div>
        </form>
        {events.isPending ? (
          <p className="muted pad">Loading events...</p>
        ) : events.isError ? (
          <EmptyState title="Failed to fetch events" text={events.error.message} />
        ) : rows.length === 0 ? (
          <EmptyState title="No events match" />
        ) : (
          <>
            <ResponsiveTable rows={rows} columns={columns} caption="Ledger events" />
            <LoadMore
              hasMore={events.hasNextPage}
              loading={events.isFetchingNextPage}
              onLoad={() => void events.fetchNextPage()}
            />
          </>
        )}
      </Card>
      <EventDialog position={open} onClose={() => setOpen(null)} />
    </div>
  );
}
