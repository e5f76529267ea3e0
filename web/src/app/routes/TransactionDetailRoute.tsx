/**
 * /transactions/:transactionId: one payment's own page inside the signed-in layout.
 */
import type { ReactElement } from 'react';
import { useParams } from 'react-router-dom';
import { TransactionDetailPage } from '../../features/transactions/components/TransactionDetailPage.tsx';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';

export default function TransactionDetailRoute(): ReactElement {
  const user = useUser();
  const { transactionId = '' } = useParams();
  return (
    <AppShell>
      <TransactionDetailPage key={transactionId} transactionId={transactionId} userId={user._id} />
    </AppShell>
  );
}
