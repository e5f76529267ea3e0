/**
 * /requests: the requests feature inside the signed-in layout.
 */
import type { ReactElement } from 'react';
import { RequestsPage } from '../../features/requests/components/RequestsPage.tsx';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';

export default function RequestsRoute(): ReactElement {
  const user = useUser();
  return (
    <AppShell>
      <RequestsPage userId={user._id} />
    </AppShell>
  );
}
