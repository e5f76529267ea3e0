/**
 * /admin/audit: pick a user, read their statement (every posting with running balance,
 * counterparty, event type, position and time; filter by dates and type; "Load more"),
 * download it as CSV, reverse a reversible row with a reason, and read the raw events of
 * the account with their metadata. The chosen account lives in the URL (?account=), so a
 * link opens the same audit. State and requests are in useAccountAudit.
 */
import type { ReactElement } from 'react';
import { EventTable } from '../../../components/EventTable/EventTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { SelectField, TextField } from '../../../components/ui/Field.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Card, EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { formatRupees, shortId } from '../../../lib/format.ts';
import { FilterForm } from './FilterForm.tsx';
import { LoadMore } from './LoadMore.tsx';
import { ReverseDialog } from './ReverseDialog.tsx';
import { StatementTable } from './StatementTable.tsx';
import { useAccountAudit } from './useAccountAudit.ts';
import styles from './Audit.module.css';

const TYPE_OPTIONS = [
  'DepositSettled',
  'TransferCompleted',
  'MoneyRequestAccepted',
  'TransferReversed',
  'DepositReversed',
  'MoneyRequestPaymentReversed',
].map((type) => ({ value: type, label: type }));

export function AccountAuditPage(): ReactElement {
  const audit = useAccountAudit();
  const { accountId, draft, setDraft, head, events } = audit;
  return (
    <div className="page">
      <PageHeader title="ACCOUNT AUDIT" subtitle="A user's statement, raw events and corrections." />
      <Card>
        <SelectField
          label="Account"
          value={accountId}
          options={audit.userOptions}
          placeholder={audit.usersPending ? 'Loading users...' : 'Choose a user'}
          onValueChange={audit.chooseAccount}
        />
      </Card>
      {accountId === '' ? (
        <EmptyState title="Choose a user to audit their account" icon="users" />
      ) : (
        <>
          <div className={`tiles ${styles.auditSection}`}>
            <SummaryTile label="Account" value={head?.displayName ?? shortId(accountId)} tone="info" />
            <SummaryTile
              label="Balance"
              value={head?.balance === null || head?.balance === undefined ? '-' : formatRupees(head.balance)}
              tone="success"
            />
            <SummaryTile label="Postings shown" value={audit.lines.length} tone="neutral" />
          </div>
          <Card
            title="Statement"
            actions={
              <Button variant="secondary" size="sm" onClick={() => void audit.download()} disabled={audit.downloading}>
                <Icon name="download" size={16} /> {audit.downloading ? 'Downloading...' : 'Download CSV'}
              </Button>
            }
          >
            <FilterForm label="Statement filters" onApply={audit.applyFilters} onClear={audit.clearFilters}>
              <TextField
                label="From"
                type="date"
                value={draft.from}
                onValueChange={(from) => setDraft({ ...draft, from })}
              />
              <TextField label="To" type="date" value={draft.to} onValueChange={(to) => setDraft({ ...draft, to })} />
              <SelectField
                label="Event type"
                value={draft.type}
                options={TYPE_OPTIONS}
                placeholder="All types"
                onValueChange={(type) => setDraft({ ...draft, type })}
              />
            </FilterForm>
            <StatementTable statement={audit.statement} lines={audit.lines} onReverse={audit.setTarget} />
          </Card>
          <Card title="Raw events" className={styles.auditSection}>
            {events.isPending ? (
              <p className="muted pad">Loading events...</p>
            ) : events.isError ? (
              <EmptyState title="Failed to fetch the events" text={events.error.message} />
            ) : (
              <>
                <EventTable events={audit.eventRows} caption="Account events" withRequestKeys />
                <LoadMore
                  hasMore={events.hasNextPage}
                  loading={events.isFetchingNextPage}
                  onLoad={() => void events.fetchNextPage()}
                />
              </>
            )}
          </Card>
        </>
      )}
      <ReverseDialog target={audit.target} onClose={() => audit.setTarget(null)} />
    </div>
  );
}
