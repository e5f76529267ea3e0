/**
 * /transactions: the transactions feature with the Reset Transaction PIN dialog (reset);
 * ?pay=<account> (from /user/:accountNumber) opens the pay flow with that recipient, and
 * ?open=deposit (the dashboard's Add Money) opens Deposit.
 */
import { useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TransactionsPage } from '../../features/transactions/components/TransactionsPage.tsx';
import { ResetSecretDialog } from '../../features/reset/components/ResetSecretDialog.tsx';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';

export default function TransactionsRoute(): ReactElement {
  const user = useUser();
  const [resetOpen, setResetOpen] = useState(false);
  const [params, setParams] = useSearchParams();
  const payTo = params.get('pay') ?? undefined;
  return (
    <AppShell>
      <TransactionsPage
        user={user}
        onResetPin={() => setResetOpen(true)}
        payTo={payTo}
        onPayToHandled={() => setParams({}, { replace: true })}
        openDeposit={params.get('open') === 'deposit'}
      />
      <ResetSecretDialog kind="pin" open={resetOpen} onOpenChange={setResetOpen} defaultEmail={user.email} />
    </AppShell>
  );
}
