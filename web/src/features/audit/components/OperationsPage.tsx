/**
 * /admin/operations: money actions waiting for a second admin (approve or reject), the
 * trial balance (per account kind and total, funding sources, the last verify run and "Run
 * verify"), projection status with a Replay per projection and a progress bar polled until
 * the replay ends, charts of the trial balance and the projections' lag over time (sampled
 * while the page is open), and the audit trail. Each card is a file of its own.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/misc.tsx';
import { ApprovalsCard } from './ApprovalsCard.tsx';
import { AuditTrailCard } from './AuditTrailCard.tsx';
import { OperationsChartsCard } from './OperationsChartsCard.tsx';
import { ProjectionsCard } from './ProjectionsCard.tsx';
import { TrialBalanceCard } from './TrialBalanceCard.tsx';

export function OperationsPage({ currentUserId }: { currentUserId: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('audit.operationsTitle')} subtitle={t('audit.operationsSubtitle')} />
      <ApprovalsCard currentUserId={currentUserId} />
      <TrialBalanceCard />
      <ProjectionsCard />
      <OperationsChartsCard />
      <AuditTrailCard />
    </div>
  );
}
