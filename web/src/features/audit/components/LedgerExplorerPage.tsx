/**
 * /admin/ledger: the ledger explorer - events filtered by stream, type, actor and time
 * range, paged by position ("Load more"); choosing an event opens its postings (account,
 * amount, running balance) and its data in a dialog.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ExplorerFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<ExplorerFilters>(NO_FILTERS);
  const [open, setOpen] = useState<string | null>(null);
  const events = useEvents(filters);
  const rows = (events.data?.pages ?? []).flatMap((page) => page.items);
  const set = (key: keyof ExplorerFilters) => (value: string) => setDraft({ ...draft, [key]: value });
  return (
    <div className="page">
      <PageHeader title={t('audit.ledgerTitle')} subtitle={t('audit.ledgerSubtitle')} />
      <Card>
        <FilterForm
          label={t('audit.eventFilters')}
          onApply={() => setFilters(draft)}
          onClear={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
          }}
        >
          <TextField
            label={t('audit.stream')}
            value={draft.stream}
            onValueChange={set('stream')}
            placeholder="transfer-..."
          />
          <SelectField
            label={t('audit.type')}
            value={draft.type}
            options={TYPE_OPTIONS}
            placeholder={t('audit.allTypes')}
            onValueChange={set('type')}
          />
          <TextField label={t('audit.actorId')} value={draft.actor} onValueChange={set('actor')} />
          <TextField label={t('audit.from')} type="date" value={draft.from} onValueChange={set('from')} />
          <TextField label={t('audit.to')} type="date" value={draft.to} onValueChange={set('to')} />
        </FilterForm>
        {events.isPending ? (
          <p className="muted pad">{t('audit.loadingEvents')}</p>
        ) : events.isError ? (
          <EmptyState title={t('audit.eventsFailed')} text={events.error.message} />
        ) : rows.length === 0 ? (
          <EmptyState title={t('audit.noEvents')} />
        ) : (
          <>
            <EventTable events={rows} caption={t('audit.ledgerEvents')} onOpen={setOpen} />
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
