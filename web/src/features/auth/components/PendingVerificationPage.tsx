/**
 * /user-not-verified (spec section 2): verification pending. Right after registering (the
 * form passes its success message) it says the registration succeeded, with the message and
 * a 60 s countdown; reached from sign-in (or opened directly) it says the account is awaiting
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
  message?: string;
  error?: string;
}

export default function PendingVerificationPage(): ReactElement {
  const state = (useLocation().state ?? {}) as PendingState;
  const countdown = useCountdown();
  const { t } = useTranslation();
  const { start } = countdown;
  useEffect(() => {
    if (state.message) start(PENDING_COUNTDOWN_S);
  }, [state.message, start]);
  return (
    <AuthLayout
      title={state.message ? t('pending.title') : t('pending.awaitingTitle')}
      subtitle={state.message ? t('pending.subtitle') : t('pending.awaitingSubtitle')}
    >
      <div className={styles.pending}>
        <span className={styles.icon} aria-hidden="true">
          <Icon name="shield" size={36} />
        </span>
        <h2 className={styles.title}>{t('pending.heading')}</h2>
        <p>{t('pending.wait')}</p>
        <p className="muted">{t('pending.estimate')}</p>
        {state.message ? (
          <Notice tone="success">
            {state.message}
            {countdown.remaining > 0 ? (
              <span className="countdown"> {t('pending.checkAgain', { seconds: countdown.remaining })}</span>
            ) : null}
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
