/**
 * /users (admin only, see AdminRoute): the users feature inside the signed-in layout.
 */
import type { ReactElement } from 'react';
import { UsersPage } from '../../features/users/components/UsersPage.tsx';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';

export default function UsersRoute(): ReactElement {
  const user = useUser();
  return (
    <AppShell>
      <UsersPage currentUserId={user._id} />
    </AppShell>
  );
}
