/**
 * /admin/audit (admin only, see AdminRoute): the account audit screen in the signed-in layout.
 */
import type { ReactElement } from 'react';
import { AccountAuditPage } from '../../features/audit/components/AccountAuditPage.tsx';
import { AppShell } from '../AppShell.tsx';

export default function AdminAuditRoute(): ReactElement {
  return (
    <AppShell>
      <AccountAuditPage />
    </AppShell>
  );
}
