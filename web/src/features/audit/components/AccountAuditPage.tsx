/**
 * /admin/audit: pick a user, read their statement (every posting with running balance,
 * counterparty, event type, position and time; filter by dates and type; "Load more"),
 * download it as CSV, reverse a reversible row with a reason, and read the raw events of
 * the account with their metadata. The chosen account lives in the URL (?account=), so a
 * link opens the same audit. State and requests are in useAccountAudit.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { POSTING_EVENT_TYPES } from '../../../../../contracts/admin.ts';
import { EventTable } from '../../../components/EventTable/EventTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { SelectField, TextField } from '../../../components/ui/Field.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Card, EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { formatBalance, shortId } from '../../../lib/format.ts';
import { FilterForm } from './FilterForm.tsx';
import { LoadMore } from './LoadMore.tsx';
import { ReverseDialog } from './ReverseDialog.tsx';
import { StatementTable } from './StatementTable.tsx';
import { useAccountAudit, type AccountAudit } from './useAccountAudit.ts';
import styles from './Audit.module.css';

/** A statement lists only what moves money: the event types that carry postings. */
const TYPE_OPTIONS = POSTING_EVENT_TYPES.map((type) => ({ value: type, label: type }));

export function AccountAuditPage(): ReactElement {
  const { t } = useTranslation();
  const audit = useAccountAudit();
  const { accountId, head } = audit;
  return (
    <div className="page">
      <PageHeader title={t('audit.accountTitle')} subtitle={t('audit.accountSubtitle')} />
      <Card>
        <SelectField
          label={t('audit.account')}
          value={accountId}
          options={audit.userOptions}
          placeholder={audit.usersPending ? t('audit.loadingUsers') : t('audit.chooseUser')}
          onValueChange={audit.chooseAccount}
        />
      </Card>
      {accountId === '' ? (
        <EmptyState title={t('audit.chooseUserText')} icon="users" />
      ) : (
        <>
          <div className={`tiles ${styles.auditSection}`}>
            <SummaryTile label={t('audit.account')} value={head?.displayName ?? shortId(accountId)} tone="info" />
            <SummaryTile
              label={t('audit.balance')}
              value={head?.balance === null || head?.balance === undefined ? '-' : formatBalance(head.balance)}
              tone="success"
            />
            <SummaryTile label={t('audit.postingsShown')} value={audit.lines.length} tone="neutral" />
          </div>
          <StatementCard audit={audit} />
          <RawEventsCard audit={audit} />
        </>
      )}
      <ReverseDialog target={audit.target} onClose={() => audit.setTarget(null)} />
    </div>
  );
}

/** The statement with its filters, its CSV download and each row's Reverse. */
function StatementCard({ audit }: { audit: AccountAudit }): ReactElement {
  const { t } = useTranslation();
  const { draft, setDraft } = audit;
  return (
    <Card
      title={t('audit.statement')}
      actions={
        <Button variant="secondary" size="sm" onClick={() => void audit.download()} disabled={audit.downloading}>
          <Icon name="download" size={16} /> {audit.downloading ? t('audit.downloading') : t('audit.downloadCsv')}
        </Button>
      }
    >
      <FilterForm label={t('audit.statementFilters')} onApply={audit.applyFilters} onClear={audit.clearFilters}>
        <TextField
          label={t('audit.from')}
          type="date"
          value={draft.from}
          onValueChange={(from) => setDraft({ ...draft, from })}
        />
        <TextField
          label={t('audit.to')}
          type="date"
          value={draft.to}
          onValueChange={(to) => setDraft({ ...draft, to })}
        />
        <SelectField
          label={t('audit.eventType')}
          value={draft.type}
          options={TYPE_OPTIONS}
          placeholder={t('audit.allTypes')}
          onValueChange={(type) => setDraft({ ...draft, type })}
        />
      </FilterForm>
      <StatementTable statement={audit.statement} lines={audit.lines} onReverse={audit.setTarget} />
    </Card>
  );
}

/** The account's raw events with their metadata, page by page. */
function RawEventsCard({ audit }: { audit: AccountAudit }): ReactElement {
  const { t } = useTranslation();
  const { events } = audit;
  return (
    <Card title={t('audit.rawEvents')} className={styles.auditSection}>
      {events.isPending ? (
        <p className="muted pad">{t('audit.loadingEvents')}</p>
      ) : events.isError ? (
        <EmptyState title={t('audit.eventsOfAccountFailed')} text={events.error.message} />
      ) : (
        <>
          <EventTable events={audit.eventRows} caption={t('audit.accountEvents')} withRequestKeys />
          <LoadMore
            hasMore={events.hasNextPage}
            loading={events.isFetchingNextPage}
            onLoad={() => void events.fetchNextPage()}
          />
        </>
      )}
    </Card>
  );
}
