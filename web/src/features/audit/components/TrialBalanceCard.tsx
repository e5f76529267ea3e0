/**
 * The trial balance: the total of all postings (zero when balanced), per account kind and
 * per funding source, the last verify run and "Run verify".
 */
import type { ReactElement } from 'react';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Card, EmptyState, Notice, SummaryTile } from '../../../components/ui/misc.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { useTrialBalance } from '../api/trial-balance.ts';
import type { TrialBalance } from '../api/types.ts';
import { useVerifyRun } from './useVerifyRun.ts';
import styles from './Audit.module.css';

type KindRow = TrialBalance['byKind'][number] & { _id: string };
type FundingRow = TrialBalance['fundingSources'][number] & { _id: string };

export function TrialBalanceCard(): ReactElement {
  const balance = useTrialBalance();
  const verify = useVerifyRun();
  const kinds: KindRow[] = (balance.data?.byKind ?? []).map((row) => ({ ...row, _id: row.kind }));
  const funding: FundingRow[] = (balance.data?.fundingSources ?? []).map((row) => ({ ...row, _id: row.accountId }));
  const last = balance.data?.lastVerify ?? null;
  return (
    <Card
      title="Trial balance"
      actions={
        <Button size="sm" onClick={() => void verify.run()} disabled={verify.pending}>
          <Icon name="check" size={16} /> {verify.pending ? 'Verifying...' : 'Run verify'}
        </Button>
      }
    >
      {balance.isPending ? (
        <p className="muted pad">Loading trial balance...</p>
      ) : balance.isError ? (
        <EmptyState title="Failed to fetch the trial balance" text={balance.error.message} />
      ) : (
        <>
          <div className="tiles">
            <SummaryTile
              label="Total of all postings"
              value={formatRupees(balance.data.total)}
              tone={balance.data.balanced ? 'success' : 'danger'}
            />
            <SummaryTile
              label="Balanced"
              value={balance.data.balanced ? 'Yes' : 'No'}
              tone={balance.data.balanced ? 'success' : 'danger'}
            />
            <SummaryTile
              label="Last verify"
              value={
                last ? (
                  <span data-testid="last-verify">{last.ok ? 'OK' : `${last.differences.length} difference(s)`}</span>
                ) : (
                  'Never run'
                )
              }
              tone={last ? (last.ok ? 'success' : 'danger') : 'neutral'}
            />
          </div>
          {last ? (
            <p className="small muted">
              Last verify run {formatDateTime(last.ranAt)} by {last.source} in {last.durationMs} ms.
            </p>
          ) : null}
          {last && !last.ok ? (
            <Notice tone="danger" title="Verify found differences">
              <ul>
                {last.differences.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            </Notice>
          ) : null}
          <h3 className={`card-title ${styles.auditSubtitle}`}>By account kind</h3>
          <ResponsiveTable
            rows={kinds}
            caption="Trial balance by account kind"
            columns={[
              { id: 'kind', header: 'Kind', cell: (row) => row.kind },
              { id: 'accounts', header: 'Accounts', align: 'right', cell: (row) => row.accounts },
              { id: 'balance', header: 'Balance', align: 'right', cell: (row) => formatRupees(row.balance) },
            ]}
          />
          <h3 className={`card-title ${styles.auditSubtitle}`}>Funding sources</h3>
          <ResponsiveTable
            rows={funding}
            caption="Funding sources"
            columns={[
              { id: 'method', header: 'Deposit method', cell: (row) => row.method },
              { id: 'postings', header: 'Postings', align: 'right', cell: (row) => row.postings },
              { id: 'balance', header: 'Balance', align: 'right', cell: (row) => formatRupees(row.balance) },
            ]}
          />
        </>
      )}
    </Card>
  );
}
