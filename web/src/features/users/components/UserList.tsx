/**
 * The users of the chosen tab: a table on desktop, expandable cards on phones (name, e-mail,
 * status and role; opened: mobile, join date, id and the status button).
 */
import type { ReactElement } from 'react';
import { CardList, ExpandableCard, type ExpandedCard } from '../../../components/CardList/CardList.tsx';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import { Badge } from '../../../components/ui/misc.tsx';
import { formatDateTime, shortId } from '../../../lib/format.ts';
import type { UserRecord } from '../api/get-all-users.ts';

function StatusBadge({ user }: { user: UserRecord }): ReactElement {
  return <Badge tone={user.isVerified ? 'success' : 'warning'}>{user.isVerified ? 'Verified' : 'Unverified'}</Badge>;
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
    { id: 'status', header: 'Status', cell: (row) => <StatusBadge user={row} /> },
    { id: 'actions', header: 'Actions', cell: action },
  ];
  return (
    <>
      <div className="only-desktop">
        <DataTable rows={rows} columns={columns} caption="Users" />
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
                <span className="small muted">{row.isAdmin ? 'Admin' : 'User'}</span>
              </>
            }
          >
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
          </ExpandableCard>
        )}
      />
    </>
  );
}
