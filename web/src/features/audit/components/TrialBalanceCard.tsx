/**
 * The trial balance: the total of all postings (zero when balanced), per account kind and
 * per funding source, the last verify run and "Run verify".
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Card, EmptyState, Notice, SummaryTile } from '../../../components/ui/misc.tsx';
import { formatBalance, formatDateTime } from '../../../lib/format.ts';
import { useTrialBalance } from '../api/trial-balance.ts';
import type { TrialBalance } from '../api/types.ts';
import { useVerifyRun } from './useVerifyRun.ts';
import styles from './Audit.module.css';

type KindRow = TrialBalance['byKind'][number] & { _id: string };
type FundingRow = TrialBalance['fundingSources'][number] & { _id: string };

export function TrialBalanceCard(): ReactElement {
  const { t } = useTranslation();
  const balance = useTrialBalance();
  const verify = useVerifyRun();
  return (
    <Card
      title={t('audit.trialBalance')}
      actions={
        <Button size="sm" onClick={() => void verify.run()} disabled={verify.pending}>
          <Icon name="check" size={16} /> {verify.pending ? t('audit.verifying') : t('audit.runVerify')}
        </Button>
      }
    >
      {balance.isPending ? (
        <p className="muted pad">{t('audit.loadingTrialBalance')}</p>
      ) : balance.isError ? (
        <EmptyState title={t('audit.trialBalanceFailed')} text={balance.error.message} />
      ) : (
        <>
          <TrialBalanceSummary balance={balance.data} />
          <TrialBalanceTables balance={balance.data} />
        </>
      )}
    </Card>
  );
}

/** The total, whether it is zero, and the last verify run with the differences it found. */
function TrialBalanceSummary({ balance }: { balance: TrialBalance }): ReactElement {
  const { t } = useTranslation();
  const last = balance.lastVerify;
  return (
    <>
      <div className="tiles">
        <SummaryTile
          label={t('audit.totalPostings')}
          value={formatBalance(balance.total)}
          tone={balance.balanced ? 'success' : 'danger'}
        />
        <SummaryTile
          label={t('audit.balanced')}
          value={balance.balanced ? t('audit.yes') : t('audit.no')}
          tone={balance.balanced ? 'success' : 'danger'}
        />
        <SummaryTile
          label={t('audit.lastVerify')}
          value={
            last ? (
              <span data-testid="last-verify">
                {last.ok ? t('audit.verifyOk') : t('audit.differences', { count: last.differences.length })}
              </span>
            ) : (
              t('audit.neverRun')
            )
          }
          tone={last ? (last.ok ? 'success' : 'danger') : 'neutral'}
        />
      </div>
      {last ? (
        <p className="small muted">
          {t('audit.lastVerifyRun', {
            time: formatDateTime(last.ranAt),
            source: last.source,
            duration: last.durationMs,
          })}
        </p>
      ) : null}
      {last && !last.ok ? (
        <Notice tone="danger" title={t('audit.verifyDifferences')}>
          <ul>
            {last.differences.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
    </>
  );
}

/** The balances by account kind and by funding source. */
function TrialBalanceTables({ balance }: { balance: TrialBalance }): ReactElement {
  const { t } = useTranslation();
  const kinds: KindRow[] = balance.byKind.map((row) => ({ ...row, _id: row.kind }));
  const funding: FundingRow[] = balance.fundingSources.map((row) => ({ ...row, _id: row.accountId }));
  return (
    <>
      <h3 className={`card-title ${styles.auditSubtitle}`}>{t('audit.byKind')}</h3>
      <ResponsiveTable
        rows={kinds}
        caption={t('audit.byKindCaption')}
        columns={[
          { id: 'kind', header: t('audit.kind'), cell: (row) => row.kind },
          { id: 'accounts', header: t('audit.accounts'), align: 'right', cell: (row) => row.accounts },
          { id: 'balance', header: t('audit.balance'), align: 'right', cell: (row) => formatBalance(row.balance) },
        ]}
      />
      <h3 className={`card-title ${styles.auditSubtitle}`}>{t('audit.fundingSources')}</h3>
      <ResponsiveTable
        rows={funding}
        caption={t('audit.fundingSources')}
        columns={[
          { id: 'method', header: t('audit.depositMethod'), cell: (row) => row.method },
          { id: 'postings', header: t('audit.postings'), align: 'right', cell: (row) => row.postings },
          { id: 'balance', header: t('audit.balance'), align: 'right', cell: (row) => formatBalance(row.balance) },
        ]}
      />
    </>
  );
}
