/**
 * /user-not-verified (spec section 2): verification pending. Right after registering (the
 * form says so in its state) it says the wallet was created, with a 60 s countdown - the
 * toast already said "Registration successful", once; reached from sign-in (or opened directly) it says the account is awaiting
 * an administrator's verification, since nothing was just registered.
 */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { Icon } from '../../../components/ui/icons.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { AuthLayout } from './AuthLayout.tsx';
import styles from './PendingVerificationPage.module.css';

export const PENDING_COUNTDOWN_S = 60;

interface PendingState {
  /** Set by the registration form: the account was just made. */
  registered?: boolean;
  error?: string;
}

export default function PendingVerificationPage(): ReactElement {
  const state = (useLocation().state ?? {}) as PendingState;
  const countdown = useCountdown();
  const { t } = useTranslation();
  const { start } = countdown;
  useEffect(() => {
    if (state.registered) start(PENDING_COUNTDOWN_S);
  }, [state.registered, start]);
  return (
    <AuthLayout
      title={state.registered ? t('pending.title') : t('pending.awaitingTitle')}
      subtitle={state.registered ? t('pending.subtitle') : t('pending.awaitingSubtitle')}
    >
      <div className={styles.pending}>
        <span className={styles.icon} aria-hidden="true">
          <Icon name="shield" size={36} />
        </span>
        <h2 className={styles.title}>{t('pending.heading')}</h2>
        <p>{t('pending.wait')}</p>
        <p className="muted">{t('pending.estimate')}</p>
        {/* Only the countdown: "Registration successful" was the toast's, said once. */}
        {state.registered && countdown.remaining > 0 ? (
          <Notice tone="success">
            <span className="countdown">{t('pending.checkAgain', { seconds: countdown.remaining })}</span>
          </Notice>
        ) : null}
        {state.error ? <Notice tone="danger">{state.error}</Notice> : null}
        <div className={styles.actions}>
          <Link className="btn btn-primary btn-md" to="/login">
            {t('pending.tryAgain')}
          </Link>
          <Link className="btn btn-secondary btn-md" to="/">
            {t('pending.home')}
          </Link>
        </div>
      </div>
    </AuthLayout>
  );
}
