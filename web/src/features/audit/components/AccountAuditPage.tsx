/**
 * /admin/audit: pick a user, read their statement (every posting with running balance,
 * counterparty, event type, position and time; filter by dates and type; "Load more"),
 * download it as CSV, reverse a reversible row with a reason, and read the raw events of
 * the account with their metadata. The chosen account lives in the URL (?account=), so a
 * link opens the same audit.
 */
import { useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { SelectField, TextField } from '../../../components/ui/Field.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import { downloadStatementCsv } from '../api/download-statement-csv.ts';
import { useAccountEvents } from '../api/get-account-events.ts';
import { useStatement } from '../api/get-statement.ts';
import { useAuditUsers } from '../api/get-users.ts';
import type { RawEvent, StatementFilters, StatementLine } from '../api/types.ts';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { LoadMore, SignedAmount } from './LoadMore.tsx';
import { ReverseDialog, type ReverseTarget } from './ReverseDialog.tsx';

/** Event types an admin can reverse (a completed transfer, a settled deposit, a paid request). */
export const REVERSIBLE_TYPES: ReadonlySet<string> = new Set([
  'TransferCompleted',
  'DepositSettled',
  'MoneyRequestAccepted',
]);
const REVERSAL_TYPES: ReadonlySet<string> = new Set([
  'TransferReversed',
  'DepositReversed',
  'MoneyRequestPaymentReversed',
]);

const TYPE_OPTIONS = [
  'DepositSettled',
  'TransferCompleted',
  'MoneyRequestAccepted',
  'TransferReversed',
  'DepositReversed',
  'MoneyRequestPaymentReversed',
].map((type) => ({ value: type, label: type }));

const NO_FILTERS: StatementFilters = { from: '', to: '', type: '' };

type StatementRow = StatementLine & { _id: string };
type EventRow = RawEvent & { _id: string };

export function AccountAuditPage(): ReactElement {
  const [params, setParams] = useSearchParams();
  const accountId = params.get('account') ?? '';
  const users = useAuditUsers();
  const [draft, setDraft] = useState<StatementFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<StatementFilters>(NO_FILTERS);
  const [target, setTarget] = useState<ReverseTarget | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [awaitPosition, setAwaitPosition] = useState<string | null>(null);
  const notify = useToast();
  const statement = useStatement(accountId, filters, awaitPosition);
  const events = useAccountEvents(accountId);
  const lines: StatementRow[] = (statement.data?.pages ?? [])
    .flatMap((page) => page.items)
    .map((line) => ({ ...line, _id: line.sequence }));
  const reversedStreams = new Set(
    lines.filter((line) => REVERSAL_TYPES.has(line.eventType)).map((line) => line.streamId),
  );
  const head = statement.data?.pages[0];

  function chooseAccount(id: string): void {
    setParams(id ? { account: id } : {});
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
    setAwaitPosition(null);
  }

  async function download(): Promise<void> {
    setDownloading(true);
    try {
      await downloadStatementCsv(accountId, filters);
    } catch (error) {
      notify({ tone: 'error', message: error instanceof Error ? error.message : 'Failed to download the statement' });
    } finally {
      setDownloading(false);
    }
  }

  const reversible = (line: StatementLine) =>
    REVERSIBLE_TYPES.has(line.eventType) && !reversedStreams.has(line.streamId);
  const statementColumns: Column<StatementRow>[] = [
    { id: 'time', header: 'Time', cell: (row) => formatDateTime(row.recordedAt) },
    { id: 'position', header: 'Position', cell: (row) => <span className="mono">{row.position}</span> },
    {
      id: 'type',
      header: 'Event',
      cell: (row) => <Badge tone={REVERSAL_TYPES.has(row.eventType) ? 'warning' : 'neutral'}>{row.eventType}</Badge>,
    },
    { id: 'counterparty', header: 'Counterparty', cell: (row) => row.counterpartyName ?? row.counterpartyId ?? '-' },
    {
      id: 'amount',
      header: 'Amount',
      align: 'right',
      cell: (row) => <SignedAmount rupees={row.amount} format={formatRupees} />,
    },
    { id: 'balance', header: 'Balance', align: 'right', cell: (row) => formatRupees(row.balanceAfter) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (row) =>
        reversible(row) ? (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Reverse ${row.eventType} at position ${row.position}`}
            onClick={() =>
              setTarget({
                streamId: row.streamId,
                summary: `${row.eventType} of ${formatRupees(Math.abs(row.amount))}${row.counterpartyName ? ` with ${row.counterpartyName}` : ''}`,
              })
            }
          >
            Reverse
          </Button>
        ) : (
          <span className="muted">-</span>
        ),
    },
  ];
  const eventColumns: Column<EventRow>[] = [
    { id: 'position', header: 'Position', cell: (row) => <span className="mono">{row.position}</span> },
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
    {
      id: 'idempotency',
      header: 'Idempotency key',
      cell: (row) => <span className="mono-wrap">{row.idempotencyKey ?? '-'}</span>,
    },
    { id: 'request', header: 'Request id', cell: (row) => <span className="mono-wrap">{row.requestId ?? '-'}</span> },
  ];
  const eventRows: EventRow[] = (events.data?.pages ?? [])
    .flatMap((page) => page.items)
    .map((event) => ({ ...event, _id: event.position }));
  const userOptions = (users.data ?? []).map((user) => ({
    value: user._id,
    label: `${user.firstName} ${user.lastName} (${user.email})`,
  }));

  function statementBody(): ReactElement {
    if (statement.isPending) return <p className="muted pad">Loading statement...</p>;
    if (statement.isError) return <EmptyState title="Failed to fetch the statement" text={statement.error.message} />;
    if (lines.length === 0) return <EmptyState title="No postings match" icon="transactions" />;
    return (
      <>
        <ResponsiveTable rows={lines} columns={statementColumns} caption="Statement" />
        <LoadMore
          hasMore={statement.hasNextPage}
          loading={statement.isFetchingNextPage}
          onLoad={() => void statement.fetchNextPage()}
        />
      </>
    );
  }

  return (
    <div className="page">
      <PageHeader title="ACCOUNT AUDIT" subtitle="A user's statement, raw events and corrections." />
      <Card>
        <SelectField
          label="Account"
          value={accountId}
          options={userOptions}
          placeholder={users.isPending ? 'Loading users...' : 'Choose a user'}
          onValueChange={chooseAccount}
        />
      </Card>
      {accountId === '' ? (
        <EmptyState title="Choose a user to audit their account" icon="users" />
      ) : (
        <>
          <div className="tiles audit-section">
            <SummaryTile label="Account" value={head?.displayName ?? shortId(accountId)} tone="info" />
            <SummaryTile
              label="Balance"
              value={head?.balance === null || head?.balance === undefined ? '-' : formatRupees(head.balance)}
              tone="success"
            />
            <SummaryTile label="Postings shown" value={lines.length} tone="neutral" />
          </div>
          <Card
            title="Statement"
            actions={
              <Button variant="secondary" size="sm" onClick={() => void download()} disabled={downloading}>
                <Icon name="download" size={16} /> {downloading ? 'Downloading...' : 'Download CSV'}
              </Button>
            }
          >
            <form
              className="audit-filters"
              aria-label="Statement filters"
              onSubmit={(event) => {
                event.preventDefault();
                setFilters(draft);
              }}
            >
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
              <div className="audit-actions">
                <Button type="submit" variant="primary">
                  Apply
                </Button>
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
            {statementBody()}
          </Card>
          <Card title="Raw events" className="audit-section">
            {events.isPending ? (
              <p className="muted pad">Loading events...</p>
            ) : events.isError ? (
              <EmptyState title="Failed to fetch the events" text={events.error.message} />
            ) : (
              <>
                <ResponsiveTable rows={eventRows} columns={eventColumns} caption="Account events" />
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
      <ReverseDialog target={target} onClose={() => setTarget(null)} onReversed={setAwaitPosition} />
    </div>
  );
}
