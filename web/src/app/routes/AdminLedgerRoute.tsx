/**
 * /admin/ledger (admin only, see AdminRoute): the ledger explorer in the signed-in layout.
 */
import type { ReactElement } from 'react';
import { LedgerExplorerPage } from '../../features/audit/components/LedgerExplorerPage.tsx';
import { AppShell } from '../AppShell.tsx';

export default function AdminLedgerRoute(): ReactElement {
  return (
    <AppShell>
      <LedgerExplorerPage />
    </AppShell>
  );
}
