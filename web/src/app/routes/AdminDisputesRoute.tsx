/**
 * /admin/disputes (admin only, see AdminRoute): the disputes queue in the signed-in layout.
 */
import type { ReactElement } from 'react';
import { DisputesPage } from '../../features/audit/components/DisputesPage.tsx';
import { AppShell } from '../AppShell.tsx';

export default function AdminDisputesRoute(): ReactElement {
  return (
    <AppShell>
      <DisputesPage />
    </AppShell>
  );
}
