/**
 * /user-not-verified (spec section 2): registration done, verification pending; a message
 * box when one was passed, and a 60 s countdown after a success message.
 */
import { useEffect, type ReactElement } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Icon } from '../../../components/ui/icons.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { AuthLayout } from './AuthLayout.tsx';
import styles from './PendingVerificationPage.module.css';

export const PENDING_COUNTDOWN_S = 60;

interface PendingState {
  message?: string;
  error?: string;
}

export default function PendingVerificationPage(): ReactElement {
  const state = (useLocation().state ?? {}) as PendingState;
  const countdown = useCountdown();
  const { start } = countdown;
  useEffect(() => {
    if (state.message) start(PENDING_COUNTDOWN_S);
  }, [state.message, start]);
  return (
    <AuthLayout title="Registration Successful!" subtitle="Your wallet has been created.">
      <div className={styles.pending}>
        <span className={styles.icon} aria-hidden="true">
          <Icon name="shield" size={36} />
        </span>
        <h2 className={styles.title}>Verification Required</h2>
        <p>
          You'll be able to log in once the wallet verifies your credentials and document IDs. Please wait till it
          completes.
        </p>
        <p className="muted">
          Verification takes an estimated 1-2 business days. We will send you an e-mail as soon as your account is
          active.
        </p>
        {state.message ? (
          <Notice tone="success">
            {state.message}
            {countdown.remaining > 0 ? (
              <span className="countdown"> You can check again in {countdown.remaining}s.</span>
            ) : null}
          </Notice>
        ) : null}
        {state.error ? <Notice tone="danger">{state.error}</Notice> : null}
        <div className={styles.actions}>
          <Link className="btn btn-primary btn-md" to="/login">
            Try Logging in Again
          </Link>
          <Link className="btn btn-secondary btn-md" to="/">
            Back to Home
          </Link>
        </div>
      </div>
    </AuthLayout>
  );
}
