/**
 * /admin/ledger: the ledger explorer - events filtered by stream, type, actor and time
 * range, paged by position ("Load more"); choosing an event opens its postings (account,
 * amount, running balance) and its data in a dialog.
 */
import { useState, type ReactElement } from 'react';
import { EVENT_TYPES } from '../../../../../contracts/admin.ts';
import { EventTable } from '../../../components/EventTable/EventTable.tsx';
import { SelectField, TextField } from '../../../components/ui/Field.tsx';
import { Card, EmptyState, PageHeader } from '../../../components/ui/misc.tsx';
import { useEvents, type ExplorerFilters } from '../api/get-events.ts';
import { EventDialog } from './EventDialog.tsx';
import { FilterForm } from './FilterForm.tsx';
import { LoadMore } from './LoadMore.tsx';

const TYPE_OPTIONS = EVENT_TYPES.map((type) => ({ value: type, label: type }));

const NO_FILTERS: ExplorerFilters = { stream: '', type: '', actor: '', from: '', to: '' };

export function LedgerExplorerPage(): ReactElement {
  const [draft, setDraft] = useState<ExplorerFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<ExplorerFilters>(NO_FILTERS);
  const [open, setOpen] = useState<string | null>(null);
  const events = useEvents(filters);
  const rows = (events.data?.pages ?? []).flatMap((page) => page.items);
  const set = (key: keyof ExplorerFilters) => (value: string) => setDraft({ ...draft, [key]: value });
  return (
    <div className="page">
      <PageHeader title="LEDGER EXPLORER" subtitle="Every event of the log, in position order." />
      <Card>
        <FilterForm
          label="Event filters"
          onApply={() => setFilters(draft)}
          onClear={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
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
        </FilterForm>
        {events.isPending ? (
          <p className="muted pad">Loading events...</p>
        ) : events.isError ? (
          <EmptyState title="Failed to fetch events" text={events.error.message} />
        ) : rows.length === 0 ? (
          <EmptyState title="No events match" />
        ) : (
          <>
            <EventTable events={rows} caption="Ledger events" onOpen={setOpen} />
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
