/**
 * The admin Users page (spec section 2): REFRESH DATA, filter tabs with counts, table and
 * expandable mobile cards, Suspend / Activate, summary tiles and empty texts; below them the
 * deposits waiting for review, each with Settle and Fail.
 */
import { Tabs } from 'radix-ui';
import type { ReactElement } from 'react';
import { useExpandedCard } from '../../../components/CardList/CardList.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { PendingDepositsCard } from './PendingDepositsCard.tsx';
import { UserList } from './UserList.tsx';
import { UserStatusButton } from './UserStatusButton.tsx';
import { USER_FILTERS, useUsersPage } from './useUsersPage.ts';

export function UsersPage({ currentUserId }: { currentUserId: string }): ReactElement {
  const cards = useExpandedCard();
  const { users, all, filter, setFilter, filterLabel, rows, count, toggle, isBusy } = useUsersPage();

  function body(): ReactElement {
    if (users.isPending) return <p className="muted pad">Loading users...</p>;
    if (users.isError) return <EmptyState title="Failed to fetch users" text={users.error.message} />;
    if (rows.length === 0)
      return (
        <EmptyState
          title={all.length === 0 ? 'No users are registered yet' : `No ${filterLabel} users found`}
          icon="users"
        />
      );
    return (
      <UserList
        rows={rows}
        cards={cards}
        action={(user) => (
          <UserStatusButton
            user={user}
            busy={isBusy(user)}
            isSelf={user._id === currentUserId}
            onToggle={(target) => void toggle(target)}
          />
        )}
      />
    );
  }

  return (
    <div className="page">
      <PageHeader title="USERS" subtitle="Verify new customers and suspend accounts.">
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
        <Tabs.Root value={filter} onValueChange={setFilter}>
          <Tabs.List className="tabs" aria-label="User filter">
            {USER_FILTERS.map((entry) => (
              <Tabs.Trigger key={entry.id} value={entry.id} className="tab">
                {entry.label} ({count(entry.id)})
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {/* One panel per tab, so each tab's aria-controls names an element (axe: aria-valid-attr-value). */}
          {USER_FILTERS.map((entry) => (
            <Tabs.Content key={entry.id} value={entry.id} className="tab-panel">
              {entry.id === filter ? body() : null}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </section>
      <PendingDepositsCard />
    </div>
  );
}
