/**
 * The admin Users page (spec section 2): REFRESH DATA, filter tabs with counts, table and
 * expandable mobile cards, Suspend / Activate (Activate through the identity check, issue 41),
 * summary tiles and empty texts; below them the deposits waiting for review, each with Settle
 * and Fail.
 */
import { Tabs } from 'radix-ui';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useExpandedCard } from '../../../components/CardList/CardList.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { EmptyState, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { IdentityCheckDialog } from './IdentityCheckDialog.tsx';
import { PendingDepositsCard } from './PendingDepositsCard.tsx';
import { UserList } from './UserList.tsx';
import { UserStatusButton } from './UserStatusButton.tsx';
import { USER_FILTERS, useUsersPage } from './useUsersPage.ts';

export function UsersPage({ currentUserId }: { currentUserId: string }): ReactElement {
  const { t } = useTranslation();
  const cards = useExpandedCard();
  const { users, all, filter, setFilter, filterLabel, rows, count, toggle, checking, closeCheck, activate, isBusy } =
    useUsersPage();

  function body(): ReactElement {
    if (users.isPending) return <p className="muted pad">{t('users.loading')}</p>;
    if (users.isError) return <EmptyState title={t('users.fetchFailed')} text={users.error.message} />;
    if (rows.length === 0)
      return (
        <EmptyState
          title={all.length === 0 ? t('users.noneRegistered') : t('users.noneInFilter', { filter: filterLabel })}
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
      <PageHeader title={t('users.title')} subtitle={t('users.subtitle')}>
        <Button variant="secondary" onClick={() => void users.refetch()} disabled={users.isFetching}>
          <Icon name="refresh" size={18} /> {users.isFetching ? t('users.refreshing') : t('users.refresh')}
        </Button>
      </PageHeader>
      <div className="tiles tiles-4">
        <SummaryTile label={t('users.total')} value={all.length} tone="info" />
        <SummaryTile label={t('users.admins')} value={count('admins')} tone="neutral" />
        <SummaryTile label={t('users.verified')} value={count('verified')} tone="success" />
        <SummaryTile label={t('users.unverified')} value={count('unverified')} tone="warning" />
      </div>
      <section className="card">
        <Tabs.Root value={filter} onValueChange={setFilter}>
          <Tabs.List className="tabs" aria-label={t('users.filter')}>
            {USER_FILTERS.map((entry) => (
              <Tabs.Trigger key={entry.id} value={entry.id} className="tab">
                {t('users.tabLabel', { label: t(entry.label), count: count(entry.id) })}
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
      <PendingDepositsCard currentUserId={currentUserId} />
      <IdentityCheckDialog
        user={checking}
        busy={checking !== null && isBusy(checking)}
        onClose={closeCheck}
        onActivate={(user) => void activate(user)}
      />
    </div>
  );
}
