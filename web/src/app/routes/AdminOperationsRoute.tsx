/**
 * /admin/operations (admin only, see AdminRoute): trial balance, projections and audit trail in the signed-in layout.
 */
import type { ReactElement } from 'react';
import { OperationsPage } from '../../features/audit/components/OperationsPage.tsx';
import { AppShell } from '../AppShell.tsx';

export default function AdminOperationsRoute(): ReactElement {
  return (
    <AppShell>
      <OperationsPage />
    </AppShell>
  );
}
