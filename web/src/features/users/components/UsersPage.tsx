/**
 * The admin Users page (spec section 2): REFRESH DATA, filter tabs with counts, table and
 * expandable mobile cards, Suspend / Activate, summary tiles and empty texts.
 */
import { Tabs } from 'radix-ui';
import { useState, type ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { formatDateTime, shortId } from '../../../lib/format.ts';
import { useAllUsers, type UserRecord } from '../api/get-all-users.ts';
import { useUpdateUserVerifiedStatus } from '../api/update-user-verified-status.ts';
import { ReviewDepositDialog } from './ReviewDepositDialog.tsx';

const FILTERS = [
  { id: 'all', label: 'All', test: () => true },
  { id: 'admins', label: 'Admins', test: (user: UserRecord) => user.isAdmin },
  { id: 'verified', label: 'Verified', test: (user: UserRecord) => user.isVerified },
  { id: 'unverified', label: 'Unverified', test: (user: UserRecord) => !user.isVerified },
] as const;
type FilterId = (typeof FILTERS)[number]['id'];

export function UsersPage({ currentUserId }: { currentUserId: string }): ReactElement {
  const [filter, setFilter] = useState<FilterId>('all');
  const [expanded, setExpanded] = useState<string | null>(null);
  const [reviewOpen, setReviewOpen] = useState(false);
  const users = useAllUsers();
  const update = useUpdateUserVerifiedStatus();
  const notify = useToast();
  const all = users.data ?? [];
  const count = (id: FilterId) => all.filter(FILTERS.find((entry) => entry.id === id)?.test ?? (() => true)).length;
  const rows = all.filter(FILTERS.find((entry) => entry.id === filter)?.test ?? (() => true));

  async function toggle(user: UserRecord): Promise<void> {
    try {
      const reply = await update.mutateAsync({ selectedUser: user._id, isVerified: !user.isVerified });
      notify({
        tone: reply.success ? 'success' : 'error',
        message: reply.message || (reply.success ? 'User updated' : 'Failed to update user'),
      });
    } catch (error) {
      notify({
        tone: 'error',
        message:
          error instanceof NetworkError
            ? 'Network error. Please check your connection and try again.'
            : 'Failed to update user',
      });
    }
  }

  function action(user: UserRecord): ReactElement {
    const busy = update.isPending && update.variables?.selectedUser === user._id;
    return user.isVerified ? (
      <Button
        size="sm"
        variant="danger"
        onClick={() => void toggle(user)}
        disabled={busy || user._id === currentUserId}
        aria-label={`Suspend ${user.firstName} ${user.lastName}`}
      >
        Suspend
      </Button>
    ) : (
      <Button
        size="sm"
        variant="success"
        onClick={() => void toggle(user)}
        disabled={busy}
        aria-label={`Activate ${user.firstName} ${user.lastName}`}
      >
        Activate
      </Button>
    );
  }
  const columns: Column<UserRecord>[] = [
    {
      id: 'id',
      header: 'Id',
      cell: (row) => (
        <span className="mono" title={row._id}>
          {shortId(row._id)}
        </span>
      ),
    },
    { id: 'name', header: 'Name', cell: (row) => `${row.firstName} ${row.lastName}` },
    { id: 'email', header: 'Email', cell: (row) => row.email },
    { id: 'mobile', header: 'Mobile', cell: (row) => row.contactNo || '-' },
    {
      id: 'role',
      header: 'Role',
      cell: (row) => <Badge tone={row.isAdmin ? 'info' : 'neutral'}>{row.isAdmin ? 'Admin' : 'User'}</Badge>,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (row) => (
        <Badge tone={row.isVerified ? 'success' : 'warning'}>{row.isVerified ? 'Verified' : 'Unverified'}</Badge>
      ),
    },
    { id: 'actions', header: 'Actions', cell: action },
  ];
  const label = FILTERS.find((entry) => entry.id === filter)?.label.toLowerCase() ?? '';

  function body(): ReactElement {
    if (users.isPending) return <p className="muted pad">Loading users...</p>;
    if (users.isError) return <EmptyState title="Failed to fetch users" text={users.error.message} />;
    if (rows.length === 0)
      return (
        <EmptyState title={all.length === 0 ? 'No users are registered yet' : `No ${label} users found`} icon="users" />
      );
    return (
      <>
        <div className="only-desktop">
          <DataTable rows={rows} columns={columns} caption="Users" />
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
                    <strong>
                      {row.firstName} {row.lastName}
                    </strong>
                    <p className="muted small">{row.email}</p>
                  </div>
                  <div className="list-card-end">
                    <Badge tone={row.isVerified ? 'success' : 'warning'}>
                      {row.isVerified ? 'Verified' : 'Unverified'}
                    </Badge>
                    <span className="small muted">{row.isAdmin ? 'Admin' : 'User'}</span>
                  </div>
                  <Icon name="chevronDown" size={18} className={open ? 'rotate' : ''} />
                </button>
                {open ? (
                  <div className="list-card-detail">
                    <p>
                      <span className="muted">Mobile:</span> {row.contactNo || '-'}
                    </p>
                    <p>
                      <span className="muted">Joined:</span> {formatDateTime(row.createdAt)}
                    </p>
                    <p>
                      <span className="muted">Id:</span> <span className="mono">{row._id}</span>
                    </p>
                    {action(row)}
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
      <PageHeader title="USERS" subtitle="Verify new customers and suspend accounts.">
        <Button variant="secondary" onClick={() => setReviewOpen(true)}>
          <Icon name="download" size={18} /> REVIEW DEPOSIT
        </Button>
        <Button variant="secondary" onClick={() => void users.refetch()} disabled={users.isFetching}>
          <Icon name="refresh" size={18} /> {users.isFetching ? 'REFRESHING...' : 'REFRESH DATA'}
        </Button>
      </PageHeader>
      <div className="tiles tiles-4">
        <SummaryTile label="Total Users" value={all.length} tone="info" />
        <SummaryTile label="Admins" value={count('admins')} tone="neutral" />
        <SummaryTile label="Verified" value={count('verified')} tone="success" />
        <SummaryTile label="Unverified" value={count('unverified')} tone="warning" />
      </div>
      <section className="card">
        <Tabs.Root
          value={filter}
          onValueChange={(value) => setFilter(FILTERS.find((entry) => entry.id === value)?.id ?? 'all')}
        >
          <Tabs.List className="tabs" aria-label="User filter">
            {FILTERS.map((entry) => (
              <Tabs.Trigger key={entry.id} value={entry.id} className="tab">
                {entry.label} ({count(entry.id)})
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {/* One panel per tab, so each tab's aria-controls names an element (axe: aria-valid-attr-value). */}
          {FILTERS.map((entry) => (
            <Tabs.Content key={entry.id} value={entry.id} className="tab-panel">
              {entry.id === filter ? body() : null}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </section>
      <ReviewDepositDialog open={reviewOpen} onOpenChange={setReviewOpen} />
    </div>
  );
}
