/**
 * The review actions on a pending deposit's row. A settlement filed for a second admin
 * (decision 0011) shows "Waiting for a second admin": the admin who asked cannot settle it
 * again, another admin approves it here; either may still fail it. Details opens the row.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Badge } from '../../../components/ui/misc.tsx';
import { formatRupees } from '../../../lib/format.ts';
import type { PendingDeposit } from '../api/get-pending-deposits.ts';
import { whose } from './deposit-words.ts';
import styles from './PendingDeposits.module.css';
import type { PendingDepositReview } from './usePendingDepositReview.ts';

export function DepositReviewCell({
  row,
  review,
  currentUserId,
  onDetails,
}: {
  row: PendingDeposit;
  review: PendingDepositReview;
  currentUserId: string;
  onDetails: (deposit: PendingDeposit) => void;
}): ReactElement {
  const { t } = useTranslation();
  const names = { amount: formatRupees(row.amount), name: whose(row) };
  const waiting = row.awaitingApproval;
  const busy = review.busyWith !== null;
  return (
    <div className={styles.review} data-testid="deposit-review">
      {waiting ? (
        <span className={`small ${styles.waiting}`} data-testid="waiting-approval">
          <Badge tone="warning">{t('topUp.waiting')}</Badge>
          <span className="muted">
            {t('topUp.waitingBy', { name: waiting.requestedByName ?? waiting.requestedBy })}
          </span>
        </span>
      ) : null}
      {!waiting ? (
        <Button
          size="sm"
          variant="success"
          disabled={busy}
          onClick={() => void review.settle(row)}
          aria-label={t('users.settleDeposit', names)}
        >
          {t('users.settle')}
        </Button>
      ) : waiting.requestedBy !== currentUserId ? (
        <Button
          size="sm"
          variant="success"
          disabled={busy}
          onClick={() => void review.approve(row)}
          aria-label={t('topUp.approveLabel', names)}
        >
          {t('topUp.approve')}
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="danger"
        disabled={busy}
        onClick={() => review.askFailure(row)}
        aria-label={t('users.failDeposit', names)}
      >
        {t('users.fail')}
      </Button>
      <Button size="sm" variant="secondary" onClick={() => onDetails(row)} aria-label={t('topUp.detailsLabel', names)}>
        {t('topUp.details')}
      </Button>
    </div>
  );
}
