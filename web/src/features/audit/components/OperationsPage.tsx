/**
 * /admin/operations: money actions waiting for a second admin (approve or reject), the
 * trial balance (per account kind and total, funding sources, the last verify run and "Run
 * verify"), projection status with a Replay per projection and a progress bar (radix
 * Progress) polled until the replay ends, and the audit trail; charts of the trial balance
 * and the projections' lag over time, sampled while the page is open (issue 18; recharts
 * loads lazily, in a chunk of its own).
 */
import { Progress } from 'radix-ui';
import { lazy, Suspense, useState, type ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Badge, Card, EmptyState, Notice, PageHeader, SummaryTile } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { formatDateTime, formatRupees, shortId } from '../../../lib/format.ts';
import { useDecideApproval, usePendingApprovals, type ApprovalRecord } from '../api/approvals.ts';
import { useAuditTrail } from '../api/get-audit-trail.ts';
import { isFinished, useProjections, useReplayProgress, useStartReplay } from '../api/projections.ts';
import { useRunVerify, useTrialBalance } from '../api/trial-balance.ts';
import { DEFAULT_SAMPLE_INTERVALS, useOperationsSamples, type SampleIntervals } from '../api/operations-samples.ts';
import type { AdminActionRecord, ProjectionState, TrialBalance } from '../api/types.ts';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { LoadMore } from './LoadMore.tsx';
import './operations-charts.css';

const OperationsCharts = lazy(() => import('./OperationsCharts.tsx'));

/** The trial balance and projection lag over time: sampled here, drawn by the lazy chart module. */
export function OperationsChartsCard({
  intervals = DEFAULT_SAMPLE_INTERVALS,
}: {
  intervals?: SampleIntervals;
}): ReactElement {
  const samples = useOperationsSamples(intervals);
  return (
    <Card title="Over time" className="audit-section">
      <p className="small muted">
        Sampled by this page while it is open: the trial balance every {intervals.trialBalanceMs / 1000} s, the lag
        every {intervals.lagMs / 1000} s. Prometheus keeps the long history.
      </p>
      <Suspense fallback={<p className="muted pad">Loading charts...</p>}>
        <OperationsCharts trialBalance={samples.trialBalance} lag={samples.lag} />
      </Suspense>
    </Card>
  );
}

type KindRow = TrialBalance['byKind'][number] & { _id: string };
type FundingRow = TrialBalance['fundingSources'][number] & { _id: string };
type AuditRow = AdminActionRecord & { _id: string };

type ApprovalRow = ApprovalRecord & { _id: string };

/** Requests another admin filed can be approved here; one's own can only be withdrawn. */
function ApprovalsCard({ currentUserId }: { currentUserId: string }): ReactElement {
  const approvals = usePendingApprovals();
  const decide = useDecideApproval();
  const notify = useToast();
  async function run(row: ApprovalRow, decision: 'approve' | 'reject'): Promise<void> {
    try {
      const reply = await decide.mutateAsync({
        id: row.id,
        decision,
        ...(decision === 'reject'
          ? { reason: row.requestedBy === currentUserId ? 'Withdrawn by the requester' : 'Rejected on review' }
          : {}),
      });
      notify({
        tone: reply.success ? 'success' : 'error',
        message: reply.message || (reply.success ? 'Done' : 'The request could not be decided'),
        durationMs: 5000,
      });
    } catch {
      notify({ tone: 'error', message: 'Network error. Please check your connection and try again.' });
    }
  }
  const rows: ApprovalRow[] = (approvals.data ?? []).map((row) => ({ ...row, _id: row.id }));
  const columns: Column<ApprovalRow>[] = [
    { id: 'time', header: 'Requested', cell: (row) => formatDateTime(row.requestedAt) },
    {
      id: 'by',
      header: 'By',
      cell: (row) => <span title={row.requestedBy}>{row.requestedByName ?? shortId(row.requestedBy)}</span>,
    },
    { id: 'action', header: 'Action', cell: (row) => <Badge tone="warning">{row.action}</Badge> },
    { id: 'target', header: 'Target', cell: (row) => <span className="mono-wrap">{row.target}</span> },
    { id: 'amount', header: 'Amount', align: 'right', cell: (row) => formatRupees(row.amount) },
    { id: 'reason', header: 'Reason', cell: (row) => row.reason ?? '-' },
    {
      id: 'decide',
      header: 'Decision',
      cell: (row) => (
        <div className="row-actions">
          {row.requestedBy === currentUserId ? (
            <span className="small muted">Needs another admin</span>
          ) : (
            <Button
              size="sm"
              variant="success"
              disabled={decide.isPending}
              onClick={() => void run(row, 'approve')}
              aria-label={`Approve ${row.action} of ${row.target}`}
            >
              Approve
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            disabled={decide.isPending}
            onClick={() => void run(row, 'reject')}
            aria-label={`Reject ${row.action} of ${row.target}`}
          >
            {row.requestedBy === currentUserId ? 'Withdraw' : 'Reject'}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card
      title="Waiting for a second admin"
      className="audit-section"
      actions={
        <Button size="sm" variant="secondary" onClick={() => void approvals.refetch()} disabled={approvals.isFetching}>
          <Icon name="refresh" size={16} /> Refresh
        </Button>
      }
    >
      {approvals.isPending ? (
        <p className="muted pad">Loading approval requests...</p>
      ) : approvals.isError ? (
        <EmptyState title="Failed to fetch approval requests" text={approvals.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="Nothing waiting for approval"
          text="Settlements and reversals above the approval threshold appear here."
        />
      ) : (
        <ResponsiveTable rows={rows} columns={columns} caption="Waiting for a second admin" />
      )}
    </Card>
  );
}

function TrialBalanceCard(): ReactElement {
  const balance = useTrialBalance();
  const verify = useRunVerify();
  const notify = useToast();
  async function run(): Promise<void> {
    try {
      const reply = await verify.mutateAsync();
      notify({
        tone: reply.success && reply.data?.ok ? 'success' : 'error',
        message: reply.message || 'Verify finished',
      });
    } catch {
      notify({ tone: 'error', message: 'Verify failed. Please check your connection and try again.' });
    }
  }
  const kinds: KindRow[] = (balance.data?.byKind ?? []).map((row) => ({ ...row, _id: row.kind }));
  const funding: FundingRow[] = (balance.data?.fundingSources ?? []).map((row) => ({ ...row, _id: row.accountId }));
  const last = balance.data?.lastVerify ?? null;
  return (
    <Card
      title="Trial balance"
      actions={
        <Button size="sm" onClick={() => void run()} disabled={verify.isPending}>
          <Icon name="check" size={16} /> {verify.isPending ? 'Verifying...' : 'Run verify'}
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
          <h3 className="card-title audit-subtitle">By account kind</h3>
          <ResponsiveTable
            rows={kinds}
            caption="Trial balance by account kind"
            columns={[
              { id: 'kind', header: 'Kind', cell: (row) => row.kind },
              { id: 'accounts', header: 'Accounts', align: 'right', cell: (row) => row.accounts },
              { id: 'balance', header: 'Balance', align: 'right', cell: (row) => formatRupees(row.balance) },
            ]}
          />
          <h3 className="card-title audit-subtitle">Funding sources</h3>
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

function ReplayCell({ projection, onDone }: { projection: ProjectionState; onDone: () => void }): ReactElement {
  const [watching, setWatching] = useState(false);
  const start = useStartReplay();
  const progress = useReplayProgress(projection.name, watching);
  const notify = useToast();
  const run = watching ? progress.data : undefined;
  const finished = isFinished(run);
  const percent =
    run && run.total > 0
      ? Math.min(100, Math.round((run.processed / run.total) * 100))
      : run?.state === 'done'
        ? 100
        : 0;

  async function replay(): Promise<void> {
    const reply = await start
      .mutateAsync({ name: projection.name, reason: 'Replay from the operations screen' })
      .catch(() => null);
    if (!reply?.success) {
      notify({ tone: 'error', message: reply?.message || `Replay of ${projection.name} could not be started` });
      return;
    }
    setWatching(true);
    notify({ tone: 'info', message: reply.message || `Replay of ${projection.name} queued` });
  }
  if (finished && run) queueMicrotask(onDone);
  return (
    <div>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => void replay()}
        disabled={start.isPending || (watching && !finished)}
        aria-label={`Replay ${projection.name}`}
      >
        <Icon name="refresh" size={16} /> Replay
      </Button>
      {run ? (
        <div data-testid={`replay-${projection.name}`}>
          <Progress.Root
            className="replay-progress"
            value={percent}
            max={100}
            aria-label={`Replay of ${projection.name}`}
          >
            <Progress.Indicator
              className="replay-progress-bar"
              style={{ transform: `translateX(-${100 - percent}%)` }}
            />
          </Progress.Root>
          <span className="small" role="status">
            {run.state} · {run.processed}/{run.total}
            {run.error ? ` · ${run.error}` : ''}
          </span>
        </div>
      ) : null}
    </div>
  );
}

function ProjectionsCard(): ReactElement {
  const status = useProjections();
  const rows = (status.data?.projections ?? []).map((row) => ({ ...row, _id: row.name }));
  const columns: Column<ProjectionState & { _id: string }>[] = [
    { id: 'name', header: 'Projection', cell: (row) => <strong>{row.name}</strong> },
    {
      id: 'checkpoint',
      header: 'Checkpoint',
      align: 'right',
      cell: (row) => <span className="mono">{row.checkpoint}</span>,
    },
    { id: 'lagEvents', header: 'Lag (events)', align: 'right', cell: (row) => row.lagEvents },
    { id: 'lagSeconds', header: 'Lag (s)', align: 'right', cell: (row) => row.lagSeconds.toFixed(1) },
    {
      id: 'error',
      header: 'Last error',
      cell: (row) =>
        row.lastError ? <Badge tone="danger">{row.lastError}</Badge> : <span className="muted">none</span>,
    },
    {
      id: 'replay',
      header: 'Replay',
      cell: (row) => <ReplayCell projection={row} onDone={() => void status.refetch()} />,
    },
  ];
  return (
    <Card
      title="Projections"
      className="audit-section"
      actions={
        <Button size="sm" variant="secondary" onClick={() => void status.refetch()} disabled={status.isFetching}>
          <Icon name="refresh" size={16} /> Refresh
        </Button>
      }
    >
      {status.isPending ? (
        <p className="muted pad">Loading projections...</p>
      ) : status.isError ? (
        <EmptyState title="Failed to fetch projection status" text={status.error.message} />
      ) : (
        <>
          {status.data.heldBackEvents > 0 ? (
            <Notice tone="warning">{status.data.heldBackEvents} event(s) held back by an open transaction.</Notice>
          ) : null}
          <ResponsiveTable rows={rows} columns={columns} caption="Projections" />
        </>
      )}
    </Card>
  );
}

function AuditTrailCard(): ReactElement {
  const trail = useAuditTrail();
  const rows: AuditRow[] = (trail.data?.pages ?? [])
    .flatMap((page) => page.items)
    .map((row) => ({ ...row, _id: row.id }));
  const columns: Column<AuditRow>[] = [
    { id: 'time', header: 'Time', cell: (row) => formatDateTime(row.recordedAt) },
    {
      id: 'actor',
      header: 'Actor',
      cell: (row) => <span title={row.actorId}>{row.actorName ?? shortId(row.actorId)}</span>,
    },
    { id: 'action', header: 'Action', cell: (row) => <Badge tone="info">{row.action}</Badge> },
    { id: 'target', header: 'Target', cell: (row) => <span className="mono-wrap">{row.target}</span> },
    { id: 'reason', header: 'Reason', cell: (row) => row.reason ?? '-' },
  ];
  return (
    <Card title="Audit trail" className="audit-section">
      {trail.isPending ? (
        <p className="muted pad">Loading audit trail...</p>
      ) : trail.isError ? (
        <EmptyState title="Failed to fetch the audit trail" text={trail.error.message} />
      ) : rows.length === 0 ? (
        <EmptyState title="No admin actions yet" />
      ) : (
        <>
          <ResponsiveTable rows={rows} columns={columns} caption="Audit trail" />
          <LoadMore
            hasMore={trail.hasNextPage}
            loading={trail.isFetchingNextPage}
            onLoad={() => void trail.fetchNextPage()}
          />
        </>
      )}
    </Card>
  );
}

export function OperationsPage({ currentUserId }: { currentUserId: string }): ReactElement {
  return (
    <div className="page">
      <PageHeader title="OPERATIONS" subtitle="Approvals, trial balance, projections and the admin audit trail." />
      <ApprovalsCard currentUserId={currentUserId} />
      <TrialBalanceCard />
      <ProjectionsCard />
      <OperationsChartsCard />
      <AuditTrailCard />
    </div>
  );
}
