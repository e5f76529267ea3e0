/**
 * /dashboard: the dashboard feature inside the signed-in layout.
 */
import type { ReactElement } from 'react';
import { DashboardPage } from '../../features/dashboard/components/DashboardPage.tsx';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';

export default function DashboardRoute(): ReactElement {
  const user = useUser();
  return (
    <AppShell>
      <DashboardPage user={user} />
    </AppShell>
  );
}
