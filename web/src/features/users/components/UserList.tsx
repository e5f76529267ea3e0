/**
 * The users of the chosen tab: a table on desktop, expandable cards on phones (name, e-mail,
 * status and role; opened: mobile, join date, id and the status button).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList, ExpandableCard, type ExpandedCard } from '../../../components/CardList/CardList.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Badge } from '../../../components/ui/misc.tsx';
import { formatDateTime, shortId } from '../../../lib/format.ts';
import type { UserRecord } from '../api/get-all-users.ts';

function StatusBadge({ user }: { user: UserRecord }): ReactElement {
  const { t } = useTranslation();
  return (
    <Badge tone={user.isVerified ? 'success' : 'warning'}>
      {user.isVerified ? t('users.verified') : t('users.unverified')}
    </Badge>
  );
}

export function UserList({
  rows,
  cards,
  action,
}: {
  rows: UserRecord[];
  /** Which card is open: held by the page, so it stays open across the filter tabs. */
  cards: ExpandedCard;
  /** The row's Suspend / Activate button. */
  action: (user: UserRecord) => ReactElement;
}): ReactElement {
  const { t } = useTranslation();
  const columns: Column<UserRecord>[] = [
    {
      id: 'id',
      header: t('users.id'),
      cell: (row) => (
        <span className="mono" title={row._id}>
          {shortId(row._id)}
        </span>
      ),
    },
    { id: 'name', header: t('users.name'), cell: (row) => `${row.firstName} ${row.lastName}` },
    { id: 'email', header: t('users.email'), cell: (row) => row.email },
    { id: 'mobile', header: t('users.mobile'), cell: (row) => row.contactNo || '-' },
    {
      id: 'role',
      header: t('users.role'),
      cell: (row) => (
        <Badge tone={row.isAdmin ? 'info' : 'neutral'}>{row.isAdmin ? t('users.admin') : t('users.user')}</Badge>
      ),
    },
    { id: 'status', header: t('users.status'), cell: (row) => <StatusBadge user={row} /> },
    { id: 'actions', header: t('users.actions'), cell: action },
  ];
  return (
    <>
      <div className="only-desktop">
        <DataTable rows={rows} columns={columns} caption={t('users.caption')} />
      </div>
      <CardList
        rows={rows}
        renderCard={(row) => (
          <ExpandableCard
            open={cards.isOpen(row._id)}
            onToggle={() => cards.toggle(row._id)}
            title={
              <>
                {row.firstName} {row.lastName}
              </>
            }
            subtitle={row.email}
            end={
              <>
                <StatusBadge user={row} />
                <span className="small muted">{row.isAdmin ? t('users.admin') : t('users.user')}</span>
              </>
            }
          >
            <p>
              <span className="muted">{t('users.mobileLabel')}</span> {row.contactNo || '-'}
            </p>
            <p>
              <span className="muted">{t('users.joined')}</span> {formatDateTime(row.createdAt)}
            </p>
            <p>
              <span className="muted">{t('users.idLabel')}</span> <span className="mono">{row._id}</span>
            </p>
            {action(row)}
          </ExpandableCard>
        )}
      />
    </>
  );
}
