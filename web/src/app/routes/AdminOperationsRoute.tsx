/**
 * /admin/operations (admin only, see AdminRoute): approvals, trial balance, projections and audit trail in the signed-in layout.
 */
import type { ReactElement } from 'react';
import { OperationsPage } from '../../features/audit/components/OperationsPage.tsx';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';

export default function AdminOperationsRoute(): ReactElement {
  const user = useUser();
  return (
    <AppShell>
      <OperationsPage currentUserId={user._id} />
    </AppShell>
  );
}
