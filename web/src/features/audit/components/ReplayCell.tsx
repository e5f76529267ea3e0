/**
 * A projection's Replay button and, once a replay is queued, its progress bar (radix
 * Progress) and state. Nothing here asks the server again: the live stream writes each step
 * of the run into its query, and its end refreshes the projections list (app/live-cache.ts).
 * Regression (issue 41): an end seen here called a refetch of the list at every render, and
 * the refetch re-rendered - GET /api/admin/projections ten times a second until 429.
 */
import i18next from 'i18next';
import { Progress } from 'radix-ui';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { isFinished, useReplayProgress, useStartReplay } from '../api/projections.ts';
import type { ProjectionState } from '../api/types.ts';
import type { ReplayRun } from '../api/types.ts';
import styles from './Audit.module.css';
import { replayPace } from './replay-pace.ts';

/** Recorded in the audit trail, which stays in one language (English) whatever the admin's screen shows. */
const REPLAY_REASON = 'Replay from the operations screen';

/** " · 52,000 events/s · 12 s left" while loading, " · building indexes, swapping in" after. */
function paceText(run: ReplayRun): string {
  const pace = replayPace(run, Date.now());
  if (pace.kind === 'finishing') return ` · ${i18next.t('audit.replayFinishing')}`;
  if (pace.kind !== 'loading') return '';
  return ` · ${i18next.t('audit.replayPace', {
    rate: Math.round(pace.eventsPerSecond).toLocaleString('en-IN'),
    left: pace.secondsLeft,
  })}`;
}

export function ReplayCell({ projection }: { projection: ProjectionState }): ReactElement {
  const { t } = useTranslation();
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
    const reply = await start.mutateAsync({ name: projection.name, reason: REPLAY_REASON }).catch(() => null);
    if (!reply?.success) {
      notify({ tone: 'error', message: reply?.message || t('audit.replayFailed', { name: projection.name }) });
      return;
    }
    setWatching(true);
    notify({ tone: 'info', message: reply.message || t('audit.replayQueued', { name: projection.name }) });
  }
  return (
    <div>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => void replay()}
        disabled={start.isPending || (watching && !finished)}
        aria-label={t('audit.replayLabel', { name: projection.name })}
      >
        <Icon name="refresh" size={16} /> {t('audit.replay')}
      </Button>
      {run ? (
        <div data-testid={`replay-${projection.name}`}>
          <Progress.Root
            className={styles.replayProgress}
            value={percent}
            max={100}
            aria-label={t('audit.replayOf', { name: projection.name })}
          >
            <Progress.Indicator
              className={styles.replayProgressBar}
              style={{ transform: `translateX(-${100 - percent}%)` }}
            />
          </Progress.Root>
          <span className="small" role="status">
            {run.state} · {run.processed}/{run.total}
            {paceText(run)}
            {run.error ? ` · ${run.error}` : ''}
          </span>
        </div>
      ) : null}
    </div>
  );
}
